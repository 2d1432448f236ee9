import { describe, expect, inject, it } from "vitest";
import type { JobRun } from "../../../schemas/jobs";
import { api, createConversation, getConversation, newWorkspaceKey, script, uniqueKey } from "../helpers";
import { settledRun } from "../job/jobs-helpers";
import {
  allEvents,
  customs,
  decide,
  idle,
  lastToolResults,
  pendingApprovals,
  send,
} from "./approvals-helpers";

const pageUrl = () => inject("pageUrl");
const setApprovals = (token: string, approvals: unknown) =>
  api("/v1/settings", { method: "PUT", json: { approvals }, token });

describe("approval rules", () => {
  it("are a workspace setting that refuses unknown values and bad patterns in the one error shape", async () => {
    const { key: token } = await newWorkspaceKey("approval-settings");
    const bad = await setApprovals(token, { shout: "sometimes" });
    expect(bad.status).toBe(400);
    const body = (await bad.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe("invalid_request");
    expect(body.error.message).toMatch(/approvals\.shout/);
    expect(body.error.message).toMatch(/"ask"\|"allow"\|"deny"/);
    expect((await setApprovals(token, { "bad name": "ask" })).status).toBe(400);
    const conv = await api("/v1/conversations", {
      method: "POST",
      json: { approvals: { x: "maybe" } },
      token,
    });
    expect(conv.status).toBe(400);
    expect(((await conv.json()) as { error: { code: string } }).error.code).toBe("invalid_request");
    const job = await api("/v1/jobs", {
      method: "POST",
      json: { name: "j", prompt: "p", schedule: "@daily", approvals: { "*": "never" } },
      token,
    });
    expect(job.status).toBe(400);

    const ok = await setApprovals(token, { "shop__*": "ask", opfs_delete: "deny" });
    expect(ok.status).toBe(200);
    expect(await ok.json()).toMatchObject({ approvals: { "shop__*": "ask", opfs_delete: "deny" } });
    expect(await (await api("/v1/settings", { token })).json()).toMatchObject({
      approvals: { "shop__*": "ask", opfs_delete: "deny" },
    });
    const cleared = await setApprovals(token, null);
    expect(await cleared.json()).toMatchObject({ approvals: {} });
  });

  it("combine across levels with the stricter winning, and deny never runs a call nor asks", async () => {
    const { key: token } = await newWorkspaceKey("approval-levels");
    await setApprovals(token, { "*": "ask", get_price: "deny" });
    const key = uniqueKey("levels");
    await script(key, [
      {
        tool_calls: [
          { id: "price", name: "get_price", arguments: { sku: "ABC-123" } },
          { id: "task", name: "create_task", arguments: { subject: "not governed by globs" } },
          { id: "shout", name: "shout", arguments: { text: "loud" } },
          { id: "order", name: "order_status", arguments: { order_id: "42" } },
        ],
      },
      { text: "ok" },
    ]);
    // The conversation allows shout, but the workspace's "*": "ask" is stricter; its own deny of
    // order_status is stricter than the workspace's ask.
    const id = await createConversation(
      key,
      { approvals: { shout: "allow", get_price: "allow", order_status: "deny" } },
      token,
    );
    await send(id, "go", token);
    const [pending] = await pendingApprovals(id, 1, token);
    expect(pending).toMatchObject({
      tool_name: "shout",
      reason: 'shout needs approval ("*": "ask" in the workspace\'s approvals).',
    });
    await decide(id, pending.approval_id, { decision: "approve" }, token);
    await idle(id, token);
    const results = await lastToolResults(key);
    expect(JSON.parse(results.price)).toEqual({
      ok: false,
      error: {
        code: "denied",
        message: 'get_price is denied by "get_price": "deny" in the workspace\'s approvals; it was not run.',
      },
    });
    expect(JSON.parse(results.task)).toMatchObject({ subject: "not governed by globs" });
    expect(results.shout).toBe("LOUD");
    expect(JSON.parse(results.order)).toEqual({
      ok: false,
      error: {
        code: "denied",
        message:
          'order_status is denied by "order_status": "deny" in the conversation\'s approvals; it was not run.',
      },
    });
    // A denied call is never announced as an approval.
    expect(customs(await allEvents(id, token), "approval_requested").map((a) => a.tool_name)).toEqual([
      "shout",
    ]);
  });

  it("refuse a directly called tool that a rule denies, and let an ask through (the caller is the person)", async () => {
    const id = await createConversation("echo", { approvals: { shout: "ask", get_price: "deny" } });
    const asked = await api(`/v1/conversations/${id}/tools/shout`, {
      method: "POST",
      json: { arguments: { text: "a" } },
    });
    expect(await asked.json()).toEqual({ tool: "shout", result: "A" });
    const denied = await api(`/v1/conversations/${id}/tools/get_price`, {
      method: "POST",
      json: { arguments: { sku: "ABC-123" } },
    });
    expect(denied.status).toBe(403);
    expect(await denied.json()).toEqual({
      error: {
        code: "denied",
        message:
          'get_price is denied by "get_price": "deny" in the conversation\'s approvals; it was not run.',
      },
    });
  });
});

describe("an HTTP tool registered with an approval default", () => {
  it("asks before each call, shows its arguments with secret values redacted, and sends the real ones", async () => {
    const reg = await api("/v1/tools", {
      method: "POST",
      json: {
        name: "bank_login",
        description: "Log in to the bank.",
        parameters: {
          type: "object",
          properties: { user: { type: "string" }, password: { type: "string" } },
        },
        url: `${pageUrl()}/receiver/bank`,
        approval: "ask",
      },
    });
    expect(reg.status).toBe(201);
    const created = (await reg.json()) as { secret: string; approval: string };
    expect(created.approval).toBe("ask");
    await fetch(`${pageUrl()}/receiver/bank/config`, {
      method: "POST",
      body: JSON.stringify({ secret: created.secret, body: { logged_in: true } }),
    });
    const key = uniqueKey("http-approval");
    await script(key, [
      { tool_calls: [{ id: "login", name: "bank_login", arguments: { user: "ann", password: "hunter2" } }] },
      { text: "in" },
    ]);
    const id = await createConversation(key);
    await send(id, "log in");
    const [pending] = await pendingApprovals(id);
    expect(pending).toMatchObject({
      tool_name: "bank_login",
      arguments: { user: "ann", password: "[redacted]" },
      reason: 'bank_login needs approval ("ask" in the tool\'s own default).',
    });
    expect(JSON.stringify((await getConversation(id)).pending_approvals)).not.toContain("hunter2");
    await decide(id, pending.approval_id, { decision: "approve" });
    await idle(id);
    const log = (await (await fetch(`${pageUrl()}/receiver/bank/log`)).json()) as {
      requests: { valid: boolean; body: unknown }[];
    };
    expect(log.requests).toEqual([
      expect.objectContaining({ valid: true, body: { user: "ann", password: "hunter2" } }),
    ]);
    const events = JSON.stringify(customs(await allEvents(id), "approval_requested"));
    expect(events).not.toContain("hunter2");
  });
});

describe("an unattended job run", () => {
  const runJob = async (approvals?: Record<string, string>) => {
    const key = uniqueKey("job-approval");
    await script(key, [
      { tool_calls: [{ id: "s", name: "shout", arguments: { text: "report" } }] },
      { tool_calls: [{ id: "f", name: "finish", arguments: { result: "done" } }] },
    ]);
    await api("/v1/settings", { method: "PUT", json: { approvals: { shout: "ask" } } });
    const res = await api("/v1/jobs", {
      method: "POST",
      json: {
        name: "Shouter",
        prompt: "Shout.",
        schedule: "@yearly",
        model: key,
        ...(approvals ? { approvals } : {}),
      },
    });
    const job = (await res.json()) as { id: string; approvals: unknown };
    expect(job.approvals).toEqual(approvals ?? null);
    const started = (await (await api(`/v1/jobs/${job.id}/run`, { method: "POST" })).json()) as JobRun;
    const run = await settledRun(job.id);
    expect(run).toMatchObject({ status: "succeeded", conversation_id: started.conversation_id });
    return { key, conversationId: run.conversation_id! };
  };

  it("denies a call that needs approval with reason unattended, without waiting", async () => {
    const { key, conversationId } = await runJob();
    expect(JSON.parse((await lastToolResults(key)).s)).toEqual({
      ok: false,
      error: { code: "denied", message: "unattended" },
    });
    expect(customs(await allEvents(conversationId), "approval_resolved")).toEqual([
      expect.objectContaining({
        tool_name: "shout",
        decision: "deny",
        reason: "unattended",
        resolved_by: "unattended",
      }),
    ]);
    await api("/v1/settings", { method: "PUT", json: { approvals: null } });
  });

  it("runs the call when the job's own rules allow the tool", async () => {
    const { key } = await runJob({ shout: "allow" });
    expect((await lastToolResults(key)).s).toBe("REPORT");
    await api("/v1/settings", { method: "PUT", json: { approvals: null } });
  });
});
