import { abortAllDurableObjects } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import {
  api,
  createConversation,
  eventually,
  getConversation,
  modelRequests,
  script,
  uniqueKey,
} from "../helpers";
import {
  allEvents,
  customs,
  decide,
  idle,
  lastToolResults,
  pendingApprovals,
  send,
} from "./approvals-helpers";

const shoutTurns = (text = "hi") => [
  { tool_calls: [{ id: "call_shout", name: "shout", arguments: { text } }] },
  { text: "All done." },
];

describe("a call that needs approval", () => {
  it("is held unexecuted, listed and announced, then runs once approved and the model reads its result", async () => {
    const key = uniqueKey("approve");
    await script(key, shoutTurns());
    const id = await createConversation(key, { approvals: { shout: "ask" } });
    await send(id, "shout hi");
    const [pending] = await pendingApprovals(id);
    expect(pending).toMatchObject({
      approval_id: expect.stringMatching(/^appr_/),
      tool_call_id: "call_shout",
      tool_name: "shout",
      arguments: { text: "hi" },
      reason: 'shout needs approval ("shout": "ask" in the conversation\'s approvals).',
    });
    expect(pending.expires_at - pending.requested_at).toBe(4000);
    // Not executed: the model has not been asked again and no result exists.
    expect(await modelRequests(key)).toHaveLength(1);

    const ok = await decide(id, pending.approval_id, { decision: "approve" });
    expect(ok.status).toBe(200);
    expect(await ok.json()).toMatchObject({
      approval_id: pending.approval_id,
      tool_call_id: "call_shout",
      decision: "approve",
      arguments_edited: false,
      resolved_by: "user",
    });
    await idle(id);
    expect(await lastToolResults(key)).toEqual({ call_shout: "HI" });

    const events = await allEvents(id);
    expect(customs(events, "approval_requested")).toEqual([
      expect.objectContaining({
        approval_id: pending.approval_id,
        tool_name: "shout",
        arguments: { text: "hi" },
      }),
    ]);
    expect(customs(events, "approval_resolved")).toEqual([
      expect.objectContaining({ approval_id: pending.approval_id, decision: "approve" }),
    ]);
    // The state events carry the pending approval, then its removal.
    const deltas = events
      .filter((e) => e.data.type === "STATE_DELTA")
      .flatMap((e) => e.data.delta as { path: string; value: unknown[] }[])
      .filter((op) => op.path === "/pending_approvals");
    expect(deltas.map((op) => op.value.length)).toEqual([1, 0]);
    expect(events.at(-1)!.data).toMatchObject({ type: "RUN_FINISHED", result: "All done." });
    expect(events.filter((e) => e.data.type === "RUN_STARTED")).toHaveLength(1);
    expect((await getConversation(id)).pending_approvals).toEqual([]);

    const again = await decide(id, pending.approval_id, { decision: "deny" });
    expect(again.status).toBe(409);
    expect(await again.json()).toEqual({
      error: {
        code: "already_decided",
        message: `Approval ${pending.approval_id} was already decided (approve).`,
      },
    });
    const unknown = await decide(id, "appr_nope", { decision: "approve" });
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toEqual({
      error: { code: "not_found", message: "No approval appr_nope in this conversation." },
    });
  });

  it("runs with the person's edited arguments, validated like the model's", async () => {
    const key = uniqueKey("approve-edit");
    await script(key, shoutTurns("delete everything"));
    const id = await createConversation(key, { approvals: { shout: "ask" } });
    await send(id, "shout");
    const [pending] = await pendingApprovals(id);

    const bad = await decide(id, pending.approval_id, { decision: "approve", arguments: { text: 5 } });
    expect(bad.status).toBe(400);
    const body = (await bad.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe("invalid_arguments");
    expect(body.error.message).toMatch(/^Invalid arguments for shout:\n.*text/s);
    expect(await pendingApprovals(id)).toHaveLength(1);
    const maybe = await decide(id, pending.approval_id, { decision: "maybe" });
    expect(maybe.status).toBe(400);
    expect(((await maybe.json()) as { error: { code: string } }).error.code).toBe("invalid_request");

    const ok = await decide(id, pending.approval_id, {
      decision: "approve",
      arguments: { text: "only this" },
      reason: "narrowed it",
    });
    expect(await ok.json()).toMatchObject({
      decision: "approve",
      arguments_edited: true,
      reason: "narrowed it",
    });
    await idle(id);
    expect(await lastToolResults(key)).toEqual({ call_shout: "ONLY THIS" });
  });

  it("denied with a reason gives the model a denied result it reads, and the run goes on", async () => {
    const key = uniqueKey("deny");
    await script(key, shoutTurns());
    const id = await createConversation(key, { approvals: { "sh*": "ask" } });
    await send(id, "shout");
    const [pending] = await pendingApprovals(id);
    const res = await decide(id, pending.approval_id, { decision: "deny", reason: "not in the office" });
    expect(res.status).toBe(200);
    await idle(id);
    expect(JSON.parse((await lastToolResults(key)).call_shout)).toEqual({
      ok: false,
      error: { code: "denied", message: "not in the office" },
    });
    const events = await allEvents(id);
    expect(customs(events, "approval_resolved")).toEqual([
      expect.objectContaining({ decision: "deny", reason: "not in the office", resolved_by: "user" }),
    ]);
    expect(events.at(-1)!.data).toMatchObject({ type: "RUN_FINISHED", result: "All done." });
  });

  it("gets one approval per call of a turn, while the calls needing none run meanwhile", async () => {
    const key = uniqueKey("several");
    await script(key, [
      {
        tool_calls: [
          { id: "p1", name: "get_price", arguments: { sku: "ABC-123" } },
          { id: "s", name: "shout", arguments: { text: "free" } },
          { id: "p2", name: "get_price", arguments: { sku: "XYZ-999" } },
        ],
      },
      { text: "Prices checked." },
    ]);
    const id = await createConversation(key, { approvals: { "get_*": "ask" } });
    await send(id, "prices");
    const pending = await pendingApprovals(id, 2);
    expect(pending.map((p) => p.tool_call_id).sort()).toEqual(["p1", "p2"]);
    expect(new Set(pending.map((p) => p.approval_id)).size).toBe(2);
    // The call that needs no approval already ran.
    const before = await api(`/v1/conversations/${id}`).then(
      (r) => r.json() as Promise<{ messages: { tool_call_id?: string; content: string }[] }>,
    );
    expect(before.messages.filter((m) => m.tool_call_id).map((m) => [m.tool_call_id, m.content])).toEqual([
      ["s", "FREE"],
    ]);

    const p1 = pending.find((p) => p.tool_call_id === "p1")!;
    const p2 = pending.find((p) => p.tool_call_id === "p2")!;
    expect((await decide(id, p1.approval_id, { decision: "approve" })).status).toBe(200);
    // The approved call runs at once; the other still waits.
    await eventually(async () => {
      const c = await getConversation(id);
      return (c.messages as { tool_call_id?: string }[]).some((m) => m.tool_call_id === "p1");
    });
    const [still] = await pendingApprovals(id, 1);
    expect(still.approval_id).toBe(p2.approval_id);
    expect(await modelRequests(key)).toHaveLength(1);
    expect((await decide(id, p2.approval_id, { decision: "deny" })).status).toBe(200);
    await idle(id);
    const results = await lastToolResults(key);
    expect(JSON.parse(results.p1)).toEqual({ sku: "ABC-123", price: 19.99, currency: "EUR" });
    expect(results.s).toBe("FREE");
    expect(JSON.parse(results.p2)).toEqual({
      ok: false,
      error: { code: "denied", message: "A person denied this call." },
    });
  });

  it("survives a restart of the object while it waits", async () => {
    const key = uniqueKey("approve-restart");
    await script(key, shoutTurns("after restart"));
    const id = await createConversation(key, { approvals: { shout: "ask" } });
    await send(id, "shout");
    const [pending] = await pendingApprovals(id);
    await abortAllDurableObjects();
    const [after] = await pendingApprovals(id);
    expect(after).toEqual(pending);
    expect((await decide(id, pending.approval_id, { decision: "approve" })).status).toBe(200);
    await idle(id);
    expect(await lastToolResults(key)).toEqual({ call_shout: "AFTER RESTART" });
  });

  it("is denied with reason timeout when nobody decides within APPROVAL_TIMEOUT_MS", async () => {
    const key = uniqueKey("approve-timeout");
    await script(key, shoutTurns());
    const id = await createConversation(key, { approvals: { shout: "ask" } });
    await send(id, "shout");
    const [pending] = await pendingApprovals(id);
    await idle(id);
    expect(JSON.parse((await lastToolResults(key)).call_shout)).toEqual({
      ok: false,
      error: { code: "denied", message: "timeout" },
    });
    expect(customs(await allEvents(id), "approval_resolved")).toEqual([
      expect.objectContaining({
        approval_id: pending.approval_id,
        decision: "deny",
        reason: "timeout",
        resolved_by: "timeout",
      }),
    ]);
    const late = await decide(id, pending.approval_id, { decision: "approve" });
    expect(late.status).toBe(409);
  });

  it("is settled as denied when the run is cancelled, so no call stays unanswered", async () => {
    const key = uniqueKey("approve-cancel");
    await script(key, [...shoutTurns(), { text: "next run" }]);
    const id = await createConversation(key, { approvals: { shout: "ask" } });
    await send(id, "shout");
    const [pending] = await pendingApprovals(id);
    const res = await api(`/v1/conversations/${id}/cancel`, { method: "POST" });
    expect(await res.json()).toMatchObject({ cancelled: true });
    const conv = await getConversation(id);
    expect(conv).toMatchObject({ status: "idle", pending_approvals: [] });
    const messages = conv.messages as { tool_call_id?: string; content: string }[];
    expect(JSON.parse(messages.find((m) => m.tool_call_id === "call_shout")!.content)).toEqual({
      ok: false,
      error: { code: "denied", message: "cancelled" },
    });
    expect((await decide(id, pending.approval_id, { decision: "approve" })).status).toBe(409);
  });
});
