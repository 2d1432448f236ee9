import { abortAllDurableObjects, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import {
  api,
  conversationObject,
  createConversation,
  eventually,
  modelRequests,
  readSse,
  release,
  script,
  uniqueKey,
  untilRunEnd,
} from "../helpers";

describe("a run cut off by a restart", () => {
  it("continues as soon as the conversation is touched, without waiting for the watchdog alarm", async () => {
    const key = uniqueKey("quick-resume");
    await script(key, [{ text: "lost with the crash", hang: true }, { text: "done after restart" }]);
    const id = await createConversation(key);
    await api(`/v1/conversations/${id}/messages`, { method: "POST", json: { content: "go" } }).then((r) =>
      r.body?.cancel(),
    );
    await eventually(async () => (await modelRequests(key)).length === 1);
    // The watchdog is ten minutes away: only the restart itself may bring the run back.
    await runInDurableObject(conversationObject(id), (_obj, state) =>
      state.storage.setAlarm(Date.now() + 600_000),
    );

    await abortAllDurableObjects();

    const events = await readSse(await api(`/v1/conversations/${id}/events`), untilRunEnd, 10_000);
    await release(key);
    expect(events.at(-1)!.data).toMatchObject({ type: "RUN_FINISHED", result: "done after restart" });
    expect(events.some((e) => e.data.type === "CUSTOM" && e.data.name === "notice")).toBe(true);
    expect(await modelRequests(key)).toHaveLength(2);
  });
});
