/**
 * Every tool a model is offered, called through the direct tool route with malformed arguments
 * (not an object, unknown keys, each parameter of the wrong type, a NUL, 200 KB of text, extreme
 * numbers, empty arrays and objects), answers in the one error shape and never with a 5xx.
 */
import { describe, expect, it } from "vitest";
import { api, createConversation, modelRequests, script, uniqueKey } from "../helpers";

type Schema = { type?: string | string[]; properties?: Record<string, Schema> };
type Offered = { function: { name: string; parameters: Schema } };

/** Malformed argument bodies for one tool. */
function malformed(parameters: Schema): unknown[] {
  const bodies: unknown[] = [{ arguments: "x" }, { arguments: [] }, { arguments: null }];
  for (const [key, p] of Object.entries(parameters.properties ?? {})) {
    const types = Array.isArray(p.type) ? p.type : [p.type];
    const wrong = types.includes("string") ? { a: 1 } : types.includes("array") ? 7 : "x";
    for (const v of [wrong, -1e308, "\u0000", "a".repeat(200_000), [], {}])
      bodies.push({ arguments: { [key]: v } });
  }
  return bodies;
}

describe("the tools a model is offered, given malformed arguments", () => {
  it("answer in the one error shape, never a 5xx", async () => {
    const key = uniqueKey("tool-args");
    await script(key, [{ text: "ok" }]);
    const id = await createConversation(key);
    await api(`/v1/conversations/${id}/messages`, { method: "POST", json: { content: "hi", stream: false } });
    const tools = ((await modelRequests(key))[0].tools ?? []) as Offered[];
    expect(tools.length).toBeGreaterThan(30);
    const wrong: string[] = [];
    for (const { function: tool } of tools)
      for (const body of malformed(tool.parameters)) {
        const res = await api(`/v1/conversations/${id}/tools/${tool.name}`, { method: "POST", json: body });
        const text = await res.text();
        const shaped = res.status < 400 || /^\{"error":\{"code":"[a-z_]+","message":"/.test(text);
        if (res.status >= 500 || !shaped)
          wrong.push(
            `${tool.name} ${JSON.stringify(body).slice(0, 60)} → ${res.status} ${text.slice(0, 120)}`,
          );
      }
    expect(wrong).toEqual([]);
  });
});
