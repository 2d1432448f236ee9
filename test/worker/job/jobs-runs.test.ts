import { describe, expect, it } from "vitest";
import type { JobRun } from "../../../schemas/jobs";
import { api, eventually, getConversation, modelRequests, release, script, uniqueKey } from "../helpers";
import { configureReceiver, createJob, jobRuns, pageUrl, receiverLog, settledRun } from "./jobs-helpers";

const REPORT = "# AI news\n\n- A new open model was released.\n- Prices went down again.\n";

async function runNow(id: string): Promise<JobRun> {
  const res = await api(`/v1/jobs/${id}/run`, { method: "POST" });
  expect(res.status).toBe(202);
  return (await res.json()) as JobRun;
}

describe("a job run", () => {
  it("runs unattended, saves the report at the templated path and posts a signed webhook", async () => {
    const key = uniqueKey("job-report");
    await script(key, [
      { tool_calls: [{ id: "q", name: "ask_user", arguments: { question: "Which region?" } }] },
      {
        tool_calls: [{ id: "f", name: "finish", arguments: { result: REPORT } }],
        usage: { prompt_tokens: 40, completion_tokens: 20 },
      },
    ]);
    await configureReceiver("job-report", { secret: "placeholder" });
    const job = await createJob({
      name: "AI News Digest",
      prompt: "Write the digest.",
      schedule: "0 7 * * *",
      timezone: "Europe/Berlin",
      model: key,
      output_path: "digests/{job}/{date}-{time}-run{run}.md",
      webhook_url: `${pageUrl()}/receiver/job-report`,
    });
    await configureReceiver("job-report", { secret: job.webhook_secret });

    const started = await runNow(job.id);
    expect(started).toMatchObject({ status: "running", trigger: "manual", number: 1, job_id: job.id });
    const run = await settledRun(job.id, { webhook: true });
    expect(run).toMatchObject({ status: "succeeded", error: null, conversation_id: started.conversation_id });
    expect(run.tokens?.total_tokens).toBeGreaterThan(0);
    expect(run.ended_at).toBeGreaterThanOrEqual(run.started_at!);
    const local = new Intl.DateTimeFormat("sv-SE", {
      timeZone: "Europe/Berlin",
      dateStyle: "short",
      timeStyle: "short",
    })
      .format(run.scheduled_at)
      .replace(/[:]/g, "")
      .split(" ");
    expect(run.result_path).toBe(`digests/ai-news-digest/${local[0]}-${local[1]}-run1.md`);

    // The report, through the files API.
    const file = await api(`/v1/files/${run.result_path}`);
    expect(file.status).toBe(200);
    expect(file.headers.get("content-type")).toMatch(/text\/markdown/);
    expect(await file.text()).toBe(REPORT);

    // ask_user answered at once with no answer; the conversation stays inspectable.
    const requests = await modelRequests(key);
    expect(String(requests[0].messages[0].content)).toMatch(/unattended scheduled run/);
    const toolMessage = requests[1].messages.find((m) => m.role === "tool");
    expect(JSON.parse(String(toolMessage?.content))).toEqual({ answer: null, reason: "unattended" });
    const conv = await getConversation(run.conversation_id!);
    expect(conv).toMatchObject({ status: "idle", metadata: { job_id: job.id, job_run_id: run.id } });
    const list = (await (await api("/v1/conversations?limit=100")).json()) as { data: { id: string }[] };
    expect(list.data.some((c) => c.id === run.conversation_id)).toBe(true);

    // The webhook: one signed delivery the receiver verified.
    const log = await receiverLog("job-report");
    expect(log).toHaveLength(1);
    expect(log[0].valid).toBe(true);
    expect(log[0].headers["x-cirrus-event"]).toBe("job.run.succeeded");
    expect(log[0].body).toMatchObject({
      type: "job.run.succeeded",
      job: { id: job.id, name: "AI News Digest" },
      run: { id: run.id, number: 1, trigger: "manual", conversation_id: run.conversation_id },
      status: "succeeded",
      result_path: run.result_path,
      excerpt: expect.stringMatching(/^# AI news - A new open model/),
      error: null,
    });
    expect(run.webhook).toMatchObject({ status: "delivered", attempts: 1, last_status: 200 });
  });

  it("saves JSON matching the output schema", async () => {
    const key = uniqueKey("job-json");
    const result = { headline: "Models got cheaper", items: 3 };
    await script(key, [{ tool_calls: [{ id: "f", name: "finish", arguments: { result } }] }]);
    const job = await createJob({
      name: "Structured",
      prompt: "Go.",
      schedule: "@daily",
      model: key,
      output_schema: { type: "object", required: ["headline"], properties: { headline: { type: "string" } } },
    });
    await runNow(job.id);
    const run = await settledRun(job.id);
    expect(run.status).toBe("succeeded");
    expect(run.result_path).toMatch(/^reports\/structured\/\d{4}-\d{2}-\d{2}-\d{4}\.json$/);
    const file = await api(`/v1/files/${run.result_path}`);
    expect(await file.json()).toEqual(result);
  });

  it("retries a failing webhook with backoff and records every attempt", async () => {
    const key = uniqueKey("job-retry");
    await script(key, [{ text: "Short report." }]);
    const job = await createJob({
      name: "Retry",
      prompt: "Go.",
      schedule: "@daily",
      model: key,
      webhook_url: `${pageUrl()}/receiver/job-retry`,
    });
    await configureReceiver("job-retry", { secret: job.webhook_secret, failFirst: 2 });
    await runNow(job.id);
    const run = await settledRun(job.id, { webhook: true });
    expect(run.status).toBe("succeeded");
    expect(run.webhook).toMatchObject({
      status: "delivered",
      attempts: 3,
      last_status: 200,
      last_error: null,
    });
    const log = await receiverLog("job-retry");
    expect(log).toHaveLength(3);
    expect(log.every((r) => r.valid)).toBe(true);
    expect(log.map((r) => r.headers["x-cirrus-delivery"])).toEqual([run.id, run.id, run.id]);
  });

  it("reports a failed run to the webhook too", async () => {
    const key = uniqueKey("job-steps");
    await script(key, [{ tool_calls: [{ id: "t", name: "list_tasks", arguments: {} }] }], true);
    const job = await createJob({
      name: "Steps",
      prompt: "Go.",
      schedule: "@daily",
      model: key,
      max_steps: 2,
      webhook_url: `${pageUrl()}/receiver/job-steps`,
    });
    await configureReceiver("job-steps", { secret: job.webhook_secret });
    await runNow(job.id);
    const run = await settledRun(job.id, { webhook: true });
    expect(run).toMatchObject({ status: "failed", result_path: null, error: { code: "step_limit" } });
    expect(run.error?.message).toMatch(/limit is 2/);
    const log = await receiverLog("job-steps");
    expect(log[0]).toMatchObject({ valid: true, body: { type: "job.run.failed", status: "failed" } });
  });

  it("stops a run that overruns its token budget and records why", async () => {
    const key = uniqueKey("job-tokens");
    await script(
      key,
      [
        {
          tool_calls: [{ id: "t", name: "list_tasks", arguments: {} }],
          usage: { prompt_tokens: 300, completion_tokens: 100 },
        },
      ],
      true,
    );
    const job = await createJob({
      name: "Tokens",
      prompt: "Go.",
      schedule: "@daily",
      model: key,
      max_tokens: 1000,
    });
    await runNow(job.id);
    const run = await settledRun(job.id);
    expect(run).toMatchObject({ status: "failed", error: { code: "token_limit" } });
    expect(run.error?.message).toMatch(/after using 1200 tokens \(the budget is 1000\)/);
    expect(run.tokens?.total_tokens).toBe(1200);
  });

  it("stops a run that overruns its wall time as timed_out, and skips a run started while one is going", async () => {
    const key = uniqueKey("job-slow");
    await script(key, [{ hang: true, text: "too late" }]);
    const job = await createJob({
      name: "Slow",
      prompt: "Go.",
      schedule: "@daily",
      model: key,
      max_runtime_seconds: 1,
    });
    const first = await runNow(job.id);
    const second = await runNow(job.id);
    expect(second).toMatchObject({ status: "skipped", trigger: "manual", error: { code: "overlap" } });
    expect((await jobRuns(job.id)).map((r) => r.status)).toEqual(["skipped", "running"]);
    const timedOut = await settledFirst(job.id, first.id);
    expect(timedOut).toMatchObject({ status: "timed_out", error: { code: "max_runtime" } });
    expect(timedOut.error?.message).toMatch(/after 1 s/);
    expect(timedOut.tokens).toMatchObject({ total_tokens: 0 });
    await release(key);
    const conv = await getConversation(first.conversation_id!);
    expect(conv.status).toBe("idle");
  });

  it("gives a webhook up after its last attempt and records the failure", async () => {
    const key = uniqueKey("job-giveup");
    await script(key, [{ text: "Report." }]);
    const job = await createJob({
      name: "Give up",
      prompt: "Go.",
      schedule: "@daily",
      model: key,
      webhook_url: `${pageUrl()}/receiver/job-giveup`,
    });
    await configureReceiver("job-giveup", { secret: job.webhook_secret, status: 500 });
    await runNow(job.id);
    const run = await settledRun(job.id, { webhook: true });
    expect(run.status).toBe("succeeded");
    expect(run.webhook).toMatchObject({
      status: "failed",
      attempts: 6,
      last_status: 500,
      last_error: "The receiver answered HTTP 500.",
      next_attempt_at: null,
      delivered_at: null,
    });
    expect(await receiverLog("job-giveup")).toHaveLength(6);
  });

  it("stops retrying a webhook whose URL was removed, and records why", async () => {
    const key = uniqueKey("job-unhook");
    await script(key, [{ text: "Report." }]);
    const job = await createJob({
      name: "Unhook",
      prompt: "Go.",
      schedule: "@daily",
      model: key,
      webhook_url: `${pageUrl()}/receiver/job-unhook`,
    });
    await configureReceiver("job-unhook", { secret: job.webhook_secret, status: 503 });
    await runNow(job.id);
    await eventually(async () => {
      const [run] = await jobRuns(job.id);
      return run?.webhook?.status === "pending" && run.webhook.attempts >= 1 ? run : null;
    }, 10_000);
    const patched = await api(`/v1/jobs/${job.id}`, { method: "PATCH", json: { webhook_url: null } });
    expect(patched.status).toBe(200);
    const run = await settledRun(job.id, { webhook: true });
    expect(run.webhook).toMatchObject({
      status: "failed",
      last_error: "webhook_url was removed before delivery.",
      next_attempt_at: null,
    });
    expect(run.webhook!.attempts).toBeLessThan(6);
    expect(await receiverLog("job-unhook")).toHaveLength(run.webhook!.attempts);
  });
});

/** Waits for one run of the ledger to end. */
function settledFirst(jobId: string, runId: string): Promise<JobRun> {
  return eventually(async () => {
    const run = (await jobRuns(jobId)).find((r) => r.id === runId);
    return run && run.status !== "running" ? run : null;
  });
}
