import { describe, expect, it } from "vitest";
import type { CreatedWebhook, WebhookDeliveryView } from "../../../schemas/webhooks";
import {
  api,
  createConversation,
  eventually,
  newWorkspaceKey,
  readSse,
  runMessage,
  script,
  uniqueKey,
} from "../helpers";
import { configureReceiver, createJob, pageUrl, receiverLog, settledRun } from "../job/jobs-helpers";

async function register(name: string, events: string[], token?: string): Promise<CreatedWebhook> {
  const res = await api("/v1/webhooks", {
    method: "POST",
    token,
    json: { url: `${pageUrl()}/receiver/${name}`, events },
  });
  expect(res.status).toBe(201);
  const hook = (await res.json()) as CreatedWebhook;
  await configureReceiver(name, { secret: hook.secret, scheme: "standard" });
  return hook;
}

async function deliveries(id: string, token?: string): Promise<WebhookDeliveryView[]> {
  const res = await api(`/v1/webhooks/${id}/deliveries`, { token });
  expect(res.status).toBe(200);
  return ((await res.json()) as { data: WebhookDeliveryView[] }).data;
}

describe("run webhooks", () => {
  it("register an endpoint, show its secret once and deliver run.succeeded signed the Standard Webhooks way", async () => {
    const ws = await newWorkspaceKey("hooks");
    const name = uniqueKey("hook-ok");
    const hook = await register(name, ["run.succeeded", "run.succeeded", "run.failed"], ws.key);
    expect(hook).toMatchObject({ object: "webhook", events: ["run.succeeded", "run.failed"] });
    expect(hook.id).toMatch(/^wh_/);
    expect(hook.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const list = await (await api("/v1/webhooks", { token: ws.key })).text();
    expect(list).not.toContain(hook.secret);
    expect(JSON.parse(list).data).toEqual([
      { id: hook.id, object: "webhook", url: hook.url, events: hook.events, created_at: hook.created_at },
    ]);

    const key = uniqueKey("hook-model");
    await script(key, [{ text: "the answer", usage: { prompt_tokens: 10, completion_tokens: 5 } }]);
    const conv = await createConversation(key, {}, ws.key);
    const events = await runMessage(conv, "go", ws.key);
    const runId = String(events[0].data.runId);

    const [got] = await eventually(async () => {
      const log = await receiverLog(name);
      return log.length ? log : null;
    });
    expect(got.valid).toBe(true);
    expect(got.headers["webhook-id"]).toMatch(/^msg_/);
    expect(got.body).toEqual({
      type: "run.succeeded",
      timestamp: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
      data: {
        conversation_id: conv,
        run_id: runId,
        status: "succeeded",
        output: "the answer",
        error: null,
        usage: { input_tokens: 10, output_tokens: 5, total_tokens: 15, cost_usd: null },
      },
    });
    const [delivery] = await eventually(async () => {
      const d = await deliveries(hook.id, ws.key);
      return d[0]?.status === "delivered" ? d : null;
    });
    expect(delivery).toMatchObject({
      id: got.headers["webhook-id"],
      type: "run.succeeded",
      next_attempt_at: null,
    });
    expect(delivery.attempts).toEqual([
      { attempt: 1, at: expect.any(Number), status_code: 200, error: null, duration_ms: expect.any(Number) },
    ]);
    expect(delivery.payload).toEqual(got.body);
  });

  it("send run.failed, run.cancelled and question.asked only to endpoints subscribed to them", async () => {
    const ws = await newWorkspaceKey("hooks-kinds");
    const all = uniqueKey("hook-all");
    const onlyFailed = uniqueKey("hook-failed");
    await register(all, ["run.failed", "run.cancelled", "question.asked", "run.succeeded"], ws.key);
    await register(onlyFailed, ["run.failed"], ws.key);

    const key = uniqueKey("hook-kinds");
    await script(key, [
      { error: { status: 400, message: "bad request" } },
      { tool_calls: [{ id: "q1", name: "ask_user", arguments: { question: "Which colour?" } }] },
    ]);
    const conv = await createConversation(key, {}, ws.key);
    await runMessage(conv, "first", ws.key); // fails: the model refuses
    const second = await api(`/v1/conversations/${conv}/messages`, {
      method: "POST",
      json: { content: "second" },
      token: ws.key,
    });
    await readSse(second, (m) => m.data.type === "CUSTOM" && m.data.name === "ask_user");
    expect((await api(`/v1/conversations/${conv}/cancel`, { method: "POST", token: ws.key })).status).toBe(
      200,
    );

    const types = await eventually(async () => {
      const t = (await receiverLog(all)).map((r) => r.body.type);
      return t.length >= 3 ? t : null;
    });
    expect(types).toEqual(["run.failed", "question.asked", "run.cancelled"]);
    const log = await receiverLog(all);
    expect(log.every((r) => r.valid)).toBe(true);
    expect(log[0].body.data).toMatchObject({ status: "failed", error: { code: expect.any(String) } });
    expect(log[1].body.data).toMatchObject({
      status: "waiting_for_user",
      question: { question_id: "q1", question: "Which colour?" },
    });
    expect(log[2].body.data).toMatchObject({ status: "cancelled", error: { code: "cancelled" } });
    expect((await receiverLog(onlyFailed)).map((r) => r.body.type)).toEqual(["run.failed"]);
  });

  it("send approval.requested with the held tool call", async () => {
    const ws = await newWorkspaceKey("hooks-approval");
    const name = uniqueKey("hook-approval");
    await register(name, ["approval.requested"], ws.key);
    const key = uniqueKey("hook-approval");
    await script(key, [
      { tool_calls: [{ id: "call_a", name: "create_task", arguments: { subject: "needs a yes" } }] },
      { text: "done" },
    ]);
    const conv = await createConversation(key, { approvals: { create_task: "ask" } }, ws.key);
    const res = await api(`/v1/conversations/${conv}/messages`, {
      method: "POST",
      json: { content: "go" },
      token: ws.key,
    });
    await res.body?.cancel();
    const [got] = await eventually(async () => {
      const log = await receiverLog(name);
      return log.length ? log : null;
    });
    expect(got.valid).toBe(true);
    expect(got.body).toMatchObject({
      type: "approval.requested",
      data: { conversation_id: conv, approval: { tool_call_id: "call_a", tool_name: "create_task" } },
    });
    await api(`/v1/conversations/${conv}/cancel`, { method: "POST", token: ws.key });
  });

  it("retry failed attempts with backoff under the same webhook-id, logging each attempt, and give up after 6", async () => {
    const ws = await newWorkspaceKey("hooks-retry");
    const flaky = uniqueKey("hook-flaky");
    const down = uniqueKey("hook-down");
    const a = await register(flaky, ["run.succeeded"], ws.key);
    const b = await register(down, ["run.succeeded"], ws.key);
    await configureReceiver(flaky, { secret: a.secret, scheme: "standard", failFirst: 2 });
    await configureReceiver(down, { secret: b.secret, scheme: "standard", status: 500 });

    const key = uniqueKey("hook-retry");
    await script(key, [{ text: "ok" }]);
    await runMessage(await createConversation(key, {}, ws.key), "go", ws.key);

    const [ok] = await eventually(async () => {
      const d = await deliveries(a.id, ws.key);
      return d[0]?.status === "delivered" ? d : null;
    });
    expect(ok.attempts.map((x) => [x.attempt, x.status_code, x.error])).toEqual([
      [1, 503, "The receiver answered HTTP 503."],
      [2, 503, "The receiver answered HTTP 503."],
      [3, 200, null],
    ]);
    // 100 ms, then 200 ms later (WEBHOOK_RETRY_BASE_MS=100 in the tests)
    expect(ok.attempts[1].at - ok.attempts[0].at).toBeGreaterThanOrEqual(100);
    expect(ok.attempts[2].at - ok.attempts[1].at).toBeGreaterThanOrEqual(200);
    const ids = new Set((await receiverLog(flaky)).map((r) => r.headers["webhook-id"]));
    expect(ids.size).toBe(1);

    const [failed] = await eventually(async () => {
      const d = await deliveries(b.id, ws.key);
      return d[0]?.status === "failed" ? d : null;
    }, 15_000);
    expect(failed.attempts).toHaveLength(6);
    expect(failed.attempts.every((x) => x.status_code === 500)).toBe(true);
    expect(failed.next_attempt_at).toBeNull();
  });

  it("sign job webhooks both ways and raise job.run.succeeded for workspace endpoints", async () => {
    const name = uniqueKey("job-both");
    const workspaceHook = uniqueKey("hook-jobs");
    await register(workspaceHook, ["job.run.succeeded", "job.run.failed"]);
    const key = uniqueKey("hook-job");
    await script(key, [{ tool_calls: [{ name: "finish", arguments: { result: "# Report" } }] }]);
    const job = await createJob({
      name: "Hooked job",
      prompt: "Report.",
      schedule: "0 7 * * *",
      model: key,
      webhook_url: `${pageUrl()}/receiver/${name}`,
    });
    expect(job.webhook_secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    await configureReceiver(name, { secret: job.webhook_secret, scheme: "both" });
    expect((await api(`/v1/jobs/${job.id}/run`, { method: "POST" })).status).toBe(202);
    const ended = await settledRun(job.id, { webhook: true });
    expect(ended.webhook?.status).toBe("delivered");
    const [own] = await receiverLog(name);
    expect(own.valid).toBe(true);
    expect(own.headers["webhook-id"]).toBe(ended.id);
    expect(own.headers["x-cirrus-signature"]).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);

    const [event] = await eventually(async () => {
      const log = await receiverLog(workspaceHook);
      return log.length ? log : null;
    });
    expect(event.valid).toBe(true);
    expect(event.body).toMatchObject({
      type: "job.run.succeeded",
      data: {
        job_id: job.id,
        job_run_id: ended.id,
        conversation_id: ended.conversation_id,
        status: "succeeded",
        output: { result_path: ended.result_path, excerpt: "# Report" },
      },
    });
  });

  it("refuse bad input with 4xx and keep endpoints inside their workspace", async () => {
    for (const body of [
      { url: "ftp://example.com/hook", events: ["run.succeeded"] },
      { url: "not a url", events: ["run.succeeded"] },
    ]) {
      const res = await api("/v1/webhooks", { method: "POST", json: body });
      expect(res.status).toBe(400);
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe("invalid_webhook_url");
    }
    for (const body of [
      { url: "https://example.com/hook", events: [] },
      { url: "https://example.com/hook", events: ["run.exploded"] },
      { url: "https://example.com/hook", events: ["run.succeeded"], secret: "mine" },
      { events: ["run.succeeded"] },
    ]) {
      const res = await api("/v1/webhooks", { method: "POST", json: body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe("invalid_request");
    }
    const mine = await register(uniqueKey("hook-mine"), ["run.succeeded"]);
    const other = await newWorkspaceKey("hooks-other");
    expect(((await (await api("/v1/webhooks", { token: other.key })).json()) as { data: [] }).data).toEqual(
      [],
    );
    expect((await api(`/v1/webhooks/${mine.id}`, { method: "DELETE", token: other.key })).status).toBe(404);
    expect((await api(`/v1/webhooks/${mine.id}/deliveries`, { token: other.key })).status).toBe(404);
    expect((await api("/v1/webhooks/../keys", { method: "DELETE" })).status).toBe(404);
    expect((await api(`/v1/webhooks/${mine.id}`, { method: "DELETE" })).status).toBe(200);
    expect((await api(`/v1/webhooks/${mine.id}`, { method: "DELETE" })).status).toBe(404);
    expect((await api("/v1/webhooks", { token: null })).status).toBe(401);
  });
});
