import { abortAllDurableObjects } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import {
  api,
  createConversation,
  eventually,
  getConversation,
  modelRequests,
  readSse,
  release,
  script,
  uniqueKey,
  untilRunEnd,
} from "../helpers";
import { configureReceiver, createJob, pageUrl, receiverLog, settledRun } from "../job/jobs-helpers";
import { decide, idle, pendingApprovals, send } from "./approvals-helpers";

type Message = { role: string; content: unknown };
type RunResult = { status: string; output: unknown; error: { code: string; message: string } | null };

const run = async (id: string) =>
  (await (
    await api(`/v1/conversations/${id}/messages`, { method: "POST", json: { content: "go", stream: false } })
  ).json()) as RunResult;

/** A turn whose one call fails, with arguments that change every turn (so the repeat guard never sees it). */
const failing = (i: number) => ({
  tool_calls: [{ name: "get_task", arguments: { task_id: `missing-${i}` } }],
});
const succeeding = (i: number) => ({
  tool_calls: [{ name: "create_task", arguments: { subject: `s${i}` } }],
});

/** Sends a message that joins the run in progress before its next model turn. */
const steerIn = async (id: string, content: string) =>
  (
    await api(`/v1/conversations/${id}/messages`, { method: "POST", json: { content, steer: true } })
  ).body?.cancel();
const STEER = "Try the other list.";

const NOTE_START = "Your tool calls have all failed";
const notesIn = (messages: Message[]) =>
  messages.filter((m) => m.role === "system" && String(m.content).startsWith(NOTE_START));

describe("model turns whose tool calls all fail", () => {
  it("end the run too_many_failures at the limit (5) and not before, the model told once at the third", async () => {
    const key = uniqueKey("fails");
    await script(key, [
      failing(1),
      // Two calls failing differently: a turn counts once, both its errors are listed.
      {
        tool_calls: [
          { name: "get_task", arguments: { task_id: "missing-2" } },
          { name: "create_task", arguments: { subject: 2 } },
        ],
      },
      failing(3),
      failing(4),
      failing(5),
      { text: "never asked" },
    ]);
    const id = await createConversation(key);
    expect((await getConversation(id)).max_consecutive_failures).toBe(5);
    const result = await run(id);
    expect(result).toMatchObject({ status: "failed", output: null });
    expect(result.error).toEqual({
      code: "too_many_failures",
      message:
        "The run stopped after 5 model turns in a row in which every tool call failed (the limit is 5). Last errors: get_task not_found, create_task invalid_arguments, get_task not_found, get_task not_found, get_task not_found (and 1 earlier).",
    });
    const requests = await modelRequests(key);
    expect(requests).toHaveLength(5);
    // The note follows the third failing turn's results, and is not repeated after the fourth.
    expect(requests.map((r) => notesIn(r.messages as Message[]).length)).toEqual([0, 0, 0, 1, 1]);
    const fourth = requests[3].messages as Message[];
    expect(fourth.at(-2)?.role).toBe("tool");
    expect(fourth.at(-1)).toEqual({
      role: "system",
      content:
        "Your tool calls have all failed 3 turns in a row. Do not try more variations of the same thing: change your approach, ask the user, or finish and say what blocked you. After 5 such turns in a row the run is stopped.",
    });
    // The failure reaches the stream like any other, and the conversation is idle again.
    const events = await readSse(await api(`/v1/conversations/${id}/events`), untilRunEnd);
    expect(events.at(-1)!.data).toMatchObject({
      type: "RUN_ERROR",
      code: "too_many_failures",
      message: result.error!.message,
    });
    expect((await getConversation(id)).status).toBe("idle");
  });

  it("start again from zero after a turn with a call that worked: the run goes past the limit's turn count", async () => {
    const key = uniqueKey("fails-reset");
    await script(key, [
      failing(1),
      failing(2),
      failing(3),
      succeeding(4),
      failing(5),
      failing(6),
      failing(7),
      failing(8),
      { text: "done" },
    ]);
    const id = await createConversation(key);
    expect(await run(id)).toMatchObject({ status: "succeeded", output: "done", error: null });
    const requests = await modelRequests(key);
    expect(requests).toHaveLength(9);
    // Once per streak: after the third failing turn of each.
    expect(requests.map((r) => notesIn(r.messages as Message[]).length)).toEqual([0, 0, 0, 1, 1, 1, 1, 2, 2]);
  });

  it("start again from zero after a message the person steered in: new direction is not held against the model", async () => {
    const key = uniqueKey("fails-steered");
    await script(key, [
      failing(1),
      failing(2),
      { ...failing(3), hang: true },
      failing(4),
      failing(5),
      failing(6),
      failing(7),
      { text: "done" },
    ]);
    const id = await createConversation(key);
    await send(id, "go");
    await eventually(async () => (await modelRequests(key)).length === 3);
    await steerIn(id, STEER);
    await release(key);
    const events = await readSse(await api(`/v1/conversations/${id}/events`), untilRunEnd);
    // Seven failing turns in all, but never five after the steered message.
    expect(events.at(-1)!.data).toMatchObject({ type: "RUN_FINISHED", result: "done" });
    expect(await modelRequests(key)).toHaveLength(8);
  });

  it("do not end the run, nor send the note, while a steered message waits for the next turn", async () => {
    const key = uniqueKey("fails-steer-at-limit");
    await script(key, [failing(1), { ...failing(2), hang: true }, failing(3), { text: "done" }]);
    const id = await createConversation(key, { max_consecutive_failures: 2 });
    await send(id, "go");
    await eventually(async () => (await modelRequests(key)).length === 2);
    // The person steers during the turn that reaches the limit.
    await steerIn(id, STEER);
    await release(key);
    const events = await readSse(await api(`/v1/conversations/${id}/events`), untilRunEnd);
    expect(events.at(-1)!.data).toMatchObject({ type: "RUN_FINISHED", result: "done" });
    const requests = await modelRequests(key);
    expect(requests).toHaveLength(4);
    // The turn after the steer reads the person's message right after the failed results.
    const third = requests[2].messages as Message[];
    expect(third.slice(-2).map((m) => m.role)).toEqual(["tool", "user"]);
    expect(third.at(-1)!.content).toBe(STEER);
  });

  it("tell the model once even when the run is resumed after a restart between the note and the next turn", async () => {
    const key = uniqueKey("fails-restart");
    await script(key, [
      failing(1),
      failing(2),
      failing(3),
      { text: "lost with the restart", hang: true },
      { text: "done after restart" },
    ]);
    const id = await createConversation(key);
    await send(id, "go");
    await eventually(async () => (await modelRequests(key)).length === 4);
    await abortAllDurableObjects(); // the object dies during the turn after the note
    const events = await readSse(await api(`/v1/conversations/${id}/events`), untilRunEnd, 20_000);
    await release(key);
    expect(events.at(-1)!.data).toMatchObject({ type: "RUN_FINISHED", result: "done after restart" });
    const requests = await modelRequests(key);
    expect(requests).toHaveLength(5);
    expect(notesIn(requests[4].messages as Message[])).toHaveLength(1);
  });

  it("do not count a call a person denied", async () => {
    const key = uniqueKey("fails-denied");
    await script(key, [
      failing(1),
      { tool_calls: [{ id: "call_held", name: "create_task", arguments: { subject: "ask first" } }] },
      { text: "gave up politely" },
    ]);
    const id = await createConversation(key, {
      max_consecutive_failures: 2,
      approvals: { create_task: "ask" },
    });
    await send(id, "go");
    const [pending] = await pendingApprovals(id);
    expect((await decide(id, pending.approval_id, { decision: "deny" })).status).toBe(200);
    await idle(id);
    const events = await readSse(await api(`/v1/conversations/${id}/events`), untilRunEnd);
    expect(events.at(-1)!.data).toMatchObject({ type: "RUN_FINISHED", result: "gave up politely" });
    const requests = await modelRequests(key);
    expect(requests).toHaveLength(3);
    // With a limit of 2, the note comes one turn before it: after the first failing turn only.
    expect(requests.map((r) => notesIn(r.messages as Message[]).length)).toEqual([0, 1, 1]);
  });

  it("are limited by the conversation's max_consecutive_failures, validated in the one error shape", async () => {
    for (const bad of [0, 501, 2.5, "3"]) {
      const res = await api("/v1/conversations", { method: "POST", json: { max_consecutive_failures: bad } });
      expect(res.status).toBe(400);
      const body = (await res.json()) as { error: { code: string; message: string } };
      expect(body.error.code).toBe("invalid_request");
      expect(body.error.message).toContain("max_consecutive_failures");
    }
    const key = uniqueKey("fails-two");
    await script(key, [failing(1), failing(2), { text: "never asked" }]);
    const id = await createConversation(key, { max_consecutive_failures: 2 });
    expect((await getConversation(id)).max_consecutive_failures).toBe(2);
    expect((await run(id)).error).toEqual({
      code: "too_many_failures",
      message:
        "The run stopped after 2 model turns in a row in which every tool call failed (the limit is 2). Last errors: get_task not_found, get_task not_found.",
    });
    expect(await modelRequests(key)).toHaveLength(2);
  });

  it("stop a sub-agent by its own count; the agent reads sub_agent_failed and goes on", async () => {
    const key = uniqueKey("fails-sub");
    await script(key, [
      { tool_calls: [{ id: "call_sub", name: "agent", arguments: { prompt: "find the task" } }] },
      failing(1),
      failing(2),
      { text: "the sub-agent could not find it" },
    ]);
    const id = await createConversation(key, { max_consecutive_failures: 2 });
    expect(await run(id)).toMatchObject({ status: "succeeded", output: "the sub-agent could not find it" });
    const requests = await modelRequests(key);
    expect(requests).toHaveLength(4);
    expect(notesIn(requests[2].messages as Message[])).toHaveLength(1);
    const result = (requests[3].messages as (Message & { tool_call_id?: string })[]).find(
      (m) => m.tool_call_id === "call_sub",
    );
    expect(JSON.parse(String(result!.content))).toEqual({
      ok: false,
      error: {
        code: "sub_agent_failed",
        message:
          "The sub-agent kept failing: The sub-agent stopped after 2 model turns in a row in which every tool call failed (the limit is 2). Last errors: get_task not_found, get_task not_found.",
      },
    });
  });

  it("are limited in a job's runs by the job's max_consecutive_failures; the ledger and webhook say so", async () => {
    const key = uniqueKey("fails-job");
    await script(key, [failing(1), failing(2), failing(3)]);
    const job = await createJob({
      name: "Failing",
      prompt: "Go.",
      schedule: "@daily",
      model: key,
      max_consecutive_failures: 2,
      webhook_url: `${pageUrl()}/receiver/fails-job`,
    });
    expect(job.max_consecutive_failures).toBe(2);
    await configureReceiver("fails-job", { secret: job.webhook_secret });
    const bad = await api(`/v1/jobs/${job.id}`, { method: "PATCH", json: { max_consecutive_failures: 0 } });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: { code: string } }).error.code).toBe("invalid_request");
    expect((await api(`/v1/jobs/${job.id}/run`, { method: "POST" })).status).toBe(202);
    const run = await settledRun(job.id, { webhook: true });
    expect(run).toMatchObject({ status: "failed", result_path: null, error: { code: "too_many_failures" } });
    expect(run.error?.message).toMatch(/^The run stopped after 2 model turns in a row .*\(the limit is 2\)/);
    expect((await getConversation(run.conversation_id!)).max_consecutive_failures).toBe(2);
    const log = await receiverLog("fails-job");
    expect(log[0]).toMatchObject({
      valid: true,
      body: { type: "job.run.failed", status: "failed", error: { code: "too_many_failures" } },
    });
  });
});
