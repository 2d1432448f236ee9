import { abortAllDurableObjects } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { page } from "../engine/browser/browser-helpers";
import {
  api,
  createConversation,
  eventually,
  getConversation,
  modelRequests,
  newWorkspaceKey,
  readSse,
  script,
  uniqueKey,
  untilRunEnd,
} from "../helpers";
import type { JobRun } from "../../../schemas/jobs";
import { createJob } from "../job/jobs-helpers";

const T = 90_000;

/** A run that opens the login page, hands it over, then thanks the person. */
async function takeoverRun(extra: Record<string, unknown> = {}) {
  const key = uniqueKey("takeover");
  await script(key, [
    { tool_calls: [{ id: "call_open", name: "open_tab", arguments: { url: page("/browser/login") } }] },
    {
      tool_calls: [
        {
          id: "call_takeover",
          name: "request_takeover",
          arguments: { reason: "Please sign in to the shop." },
        },
      ],
    },
    { text: "Thanks, I can see your account now." },
  ]);
  const id = await createConversation(key, extra);
  const stream = await api(`/v1/conversations/${id}/messages`, { method: "POST", json: { content: "go" } });
  const conv = await eventually(async () => {
    const c = await getConversation(id);
    return c.status === "waiting_for_user" ? c : null;
  }, 30_000);
  return { key, id, stream, conv };
}

const input = (id: string, body: unknown) =>
  api(`/v1/conversations/${id}/tabs/1/input`, { method: "POST", json: body });

/** The person signs in through the live view's input route (coordinates of the login form). */
async function personSignsIn(id: string, password: string): Promise<void> {
  const layout = await api(`/v1/conversations/${id}/tools/execute_script`, {
    method: "POST",
    json: {
      arguments: {
        target: "page",
        code: "['user','pass'].map((i) => { const r = document.getElementById(i).getBoundingClientRect(); return [r.x + 5, r.y + 5]; })",
      },
    },
  });
  const [[ux, uy], [px, py]] = ((await layout.json()) as { result: { result: number[][] } }).result.result;
  for (const step of [
    { type: "click", x: ux, y: uy },
    { type: "type", text: "erin" },
    { type: "click", x: px, y: py },
    { type: "type", text: password },
    { type: "key", key: "Enter" },
  ])
    expect((await input(id, step)).status).toBe(200);
}

const done = (id: string, takeoverId: string, body: unknown = {}) =>
  api(`/v1/conversations/${id}/takeover/${takeoverId}/done`, { method: "POST", json: body });

describe("request_takeover", () => {
  it(
    "pauses the run, the person signs in through the live view, and done resumes it with the tab's url and title",
    async () => {
      expect((await api("/v1/browser/profiles", { method: "POST", json: { name: "takeover" } })).status).toBe(
        201,
      );
      const { key, id, stream, conv } = await takeoverRun({ browser_profile: "takeover" });
      const events = readSse(stream, untilRunEnd, 60_000);
      expect(conv.pending_takeover).toMatchObject({
        takeover_id: "call_takeover",
        tab_id: 1,
        reason: "Please sign in to the shop.",
      });
      await personSignsIn(id, "correct horse");
      await eventually(async () => {
        const where = await api(`/v1/conversations/${id}/tools/execute_script`, {
          method: "POST",
          json: { arguments: { target: "page", code: "location.pathname" } },
        });
        return (
          ((await where.json()) as { result?: { result: string } }).result?.result === "/browser/account"
        );
      });

      const wrong = await done(id, "call_other");
      expect(wrong.status).toBe(409);
      expect(((await wrong.json()) as { error: { code: string } }).error.code).toBe("takeover_mismatch");
      const res = await done(id, "call_takeover", { note: "Signed in as erin." });
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({
        takeover_id: "call_takeover",
        status: "done",
        note: "Signed in as erin.",
        url: page("/browser/account"),
        title: "Account of erin",
      });
      const all = await events;
      expect(all.at(-1)!.data).toMatchObject({
        type: "RUN_FINISHED",
        result: "Thanks, I can see your account now.",
      });
      const requested = all.find((e) => e.data.type === "CUSTOM" && e.data.name === "takeover_requested");
      expect(requested!.data.value).toEqual({
        takeover_id: "call_takeover",
        tab_id: 1,
        reason: "Please sign in to the shop.",
      });
      expect(all.some((e) => e.data.type === "CUSTOM" && e.data.name === "takeover_resolved")).toBe(true);
      expect(JSON.stringify(all)).not.toContain("correct horse");
      const toolMsg = (await modelRequests(key))[2].messages.find(
        (m) => m.role === "tool" && String(m.content).includes('"status"'),
      );
      expect(JSON.parse(String(toolMsg!.content))).toEqual({
        status: "done",
        note: "Signed in as erin.",
        url: page("/browser/account"),
        title: "Account of erin",
      });
      expect(JSON.stringify(await modelRequests(key))).not.toContain("correct horse");
      const after = await getConversation(id);
      expect(after.pending_takeover).toBeNull();
      expect(after.status).toBe("idle");
      // The end of the take-over saved the login into the conversation's profile.
      const profiles = (await (await api("/v1/browser/profiles")).json()) as {
        data: { name: string; origins: string[] }[];
      };
      expect(profiles.data.find((p) => p.name === "takeover")!.origins).toEqual(["127.0.0.1"]);
      const again = await done(id, "call_takeover");
      expect(again.status).toBe(409);
      expect(((await again.json()) as { error: { code: string } }).error.code).toBe("no_pending_takeover");
    },
    T,
  );

  it(
    "returns {status: 'timeout'} after TAKEOVER_TIMEOUT_MS without the person",
    async () => {
      const { key, id, stream } = await takeoverRun();
      const all = await readSse(stream, untilRunEnd, 60_000);
      expect(all.at(-1)!.data.type).toBe("RUN_FINISHED");
      const toolMsg = (await modelRequests(key))[2].messages.find(
        (m) => m.role === "tool" && String(m.content).includes('"status"'),
      );
      expect(JSON.parse(String(toolMsg!.content))).toEqual({ status: "timeout" });
      expect((await getConversation(id)).pending_takeover).toBeNull();
    },
    T,
  );

  it(
    "is still pending after the object restarted, and done resumes the run",
    async () => {
      const { id, stream } = await takeoverRun();
      await stream.body?.cancel();
      await abortAllDurableObjects();
      const conv = await getConversation(id);
      expect(conv.status).toBe("waiting_for_user");
      expect(conv.pending_takeover).toMatchObject({ takeover_id: "call_takeover", tab_id: 1 });
      const res = await done(id, "call_takeover");
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({ status: "done", note: null, url: page("/browser/login") });
      const events = await readSse(await api(`/v1/conversations/${id}/events`), untilRunEnd, 30_000);
      expect(events.at(-1)!.data).toMatchObject({ type: "RUN_FINISHED" });
    },
    T,
  );

  it(
    "answers {status: 'unattended'} at once in a scheduled job's run",
    async () => {
      const key = uniqueKey("takeover-job");
      await script(key, [
        { tool_calls: [{ id: "o", name: "open_tab", arguments: { url: page("/browser/login") } }] },
        { tool_calls: [{ id: "t", name: "request_takeover", arguments: { reason: "Sign in" } }] },
        { text: "Nobody was there to sign in." },
      ]);
      // A workspace of its own: the take-overs above hold the default workspace's browsers.
      const ws = await newWorkspaceKey("takeover-job");
      const job = await createJob(
        { name: "Unattended takeover", prompt: "go", schedule: "0 7 * * *", model: key },
        ws.key,
      );
      expect((await api(`/v1/jobs/${job.id}/run`, { method: "POST", token: ws.key })).status).toBe(202);
      const run = await eventually(async () => {
        const res = await api(`/v1/jobs/${job.id}/runs`, { token: ws.key });
        const first = ((await res.json()) as { data: JobRun[] }).data[0];
        return first && first.status !== "running" ? first : null;
      }, 60_000);
      expect(run.status).toBe("succeeded");
      const toolMsg = (await modelRequests(key))[2].messages.find(
        (m) => m.role === "tool" && String(m.content).includes("unattended"),
      );
      expect(JSON.parse(String(toolMsg!.content))).toEqual({ status: "unattended" });
    },
    T,
  );

  it("cannot be called through the direct tool route, and done needs a pending take-over", async () => {
    const id = await createConversation("echo");
    const direct = await api(`/v1/conversations/${id}/tools/request_takeover`, {
      method: "POST",
      json: { arguments: { reason: "x" } },
    });
    expect(direct.status).toBe(409);
    expect(((await direct.json()) as { error: { code: string } }).error.code).toBe("run_only_tool");
    const none = await done(id, "call_x");
    expect(none.status).toBe(409);
    expect(((await none.json()) as { error: { code: string } }).error.code).toBe("no_pending_takeover");
    const bad = await done(id, "call_x", { note: 42 });
    expect(bad.status).toBe(400);
    expect((await done("conv_missing", "call_x")).status).toBe(404);
  });
});
