import { describe, expect, it } from "vitest";
import { api, createConversation, modelRequests, script, uniqueKey } from "../helpers";

type ToolSpec = { function: { name: string; description: string } };

describe("tool descriptions the model sees", () => {
  it("state the limits configured for this deployment", async () => {
    // vitest.config.ts sets ASK_USER_TIMEOUT_MS=1500, WEB_FETCH_TIMEOUT_MS=3000,
    // PAGE_SCRIPT_TIMEOUT_MS=5000 and SUB_AGENT_MAX_STEPS=4.
    const key = uniqueKey("descriptions");
    await script(key, [{ text: "ok" }]);
    const id = await createConversation(key);
    const res = await api(`/v1/conversations/${id}/messages`, {
      method: "POST",
      json: { content: "hi", stream: false },
    });
    expect(res.status).toBe(200);
    const [request] = await modelRequests(key);
    const byName = new Map(
      (request.tools as ToolSpec[]).map((t) => [t.function.name, t.function.description]),
    );
    expect(byName.get("ask_user")).toContain("after 1.5 seconds without one");
    expect(byName.get("ask_user")).not.toContain("5 minutes");
    expect(byName.get("web_fetch")).toContain("Gives up after 3 seconds; only the first 5 MiB");
    expect(byName.get("execute_script")).toContain("longer than 5 seconds is stopped");
    expect(byName.get("agent")).toContain("at most 4 model turns");
  });
});
