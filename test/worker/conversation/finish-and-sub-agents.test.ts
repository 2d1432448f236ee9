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

type Req = Awaited<ReturnType<typeof modelRequests>>[number];
const toolNames = (r: Req) =>
  ((r.tools ?? []) as { function: { name: string } }[]).map((t) => t.function.name).sort();
const systemOf = (r: Req) => String(r.messages[0]?.content ?? "");
const run = async (id: string, content: string) =>
  (
    await api(`/v1/conversations/${id}/messages`, { method: "POST", json: { content, stream: false } })
  ).json() as Promise<{
    status: string;
    output: unknown;
    error: { code: string } | null;
  }>;

describe("finish", () => {
  it("ends the run with its result as RUN_FINISHED's result and the run's output", async () => {
    const key = uniqueKey("finish");
    await script(key, [
      { tool_calls: [{ name: "finish", arguments: { result: { answer: 42, sources: ["a"] } } }] },
    ]);
    const id = await createConversation(key);
    const events = await readSse(
      await api(`/v1/conversations/${id}/messages`, { method: "POST", json: { content: "compute" } }),
      untilRunEnd,
    );
    expect(events.at(-1)!.data).toMatchObject({
      type: "RUN_FINISHED",
      result: { answer: 42, sources: ["a"] },
    });
    expect(await modelRequests(key)).toHaveLength(1);
    expect(((await getConversation(id)).current_run as unknown) ?? null).toBeNull();
  });

  it("validates the result against the output schema and asks the model to fix a mismatch", async () => {
    const key = uniqueKey("schema");
    await script(key, [
      { tool_calls: [{ name: "finish", arguments: { result: { title: 7 } } }] },
      { tool_calls: [{ name: "finish", arguments: { result: { title: "Report", score: 0.9 } } }] },
    ]);
    const schema = {
      type: "object",
      required: ["title"],
      properties: { title: { type: "string" }, score: { type: "number" } },
    };
    const id = await createConversation(key, { output_schema: schema });
    const out = await run(id, "report");
    expect(out).toMatchObject({ status: "succeeded", output: { title: "Report", score: 0.9 } });
    const second = (await modelRequests(key))[1];
    const toolMsg = second.messages.find((m) => m.role === "tool");
    expect(String(toolMsg!.content)).toContain("does not match the output schema");
    expect(String(toolMsg!.content)).toContain("/title");
  });

  it("accepts a final JSON answer that matches the schema, and reminds the model otherwise", async () => {
    const key = uniqueKey("schema-text");
    await script(key, [{ text: "here you go" }, { text: '{"title":"From text"}' }]);
    const id = await createConversation(key, { output_schema: { type: "object", required: ["title"] } });
    expect(await run(id, "go")).toMatchObject({ status: "succeeded", output: { title: "From text" } });
  });

  it("refuses an output schema that is not a usable JSON Schema", async () => {
    const res = await api("/v1/conversations", { method: "POST", json: { output_schema: { type: 12 } } });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: { code: "invalid_request" } });
  });
});

describe("sub-agents", () => {
  it("run concurrently with their own context and tool set, forward their events, and return their answers", async () => {
    const key = uniqueKey("subs");
    await script(key, [
      {
        tool_calls: [
          {
            id: "call_r",
            name: "agent",
            arguments: { prompt: "Research prices", description: "price research", type: "researcher" },
          },
          { id: "call_g", name: "agent", arguments: { prompt: "Plan the steps", description: "planner" } },
        ],
      },
      { text: "sub answer one" },
      { text: "sub answer two" },
      { text: "combined answer" },
    ]);
    const id = await createConversation(key);
    const events = await readSse(
      await api(`/v1/conversations/${id}/messages`, { method: "POST", json: { content: "go" } }),
      untilRunEnd,
    );
    expect(events.at(-1)!.data).toMatchObject({ type: "RUN_FINISHED", result: "combined answer" });
    const subEvents = events
      .filter((e) => e.data.type === "CUSTOM" && e.data.name === "sub_agent_event")
      .map((e) => e.data.value as Record<string, unknown>);
    expect(new Set(subEvents.map((v) => v.sub_agent_id))).toEqual(new Set(["call_r", "call_g"]));
    expect(subEvents.find((v) => v.sub_agent_id === "call_r")).toMatchObject({
      label: "price research",
      agent_type: "researcher",
    });
    expect(subEvents.some((v) => (v.event as { type: string }).type === "TEXT_MESSAGE_CONTENT")).toBe(true);

    const requests = await modelRequests(key);
    const research = requests.find((r) => systemOf(r).includes("research sub-agent"))!;
    const general = requests.find((r) => systemOf(r).includes("sub-agent working on one sub-task"))!;
    for (const r of [research, general]) {
      expect(toolNames(r)).not.toEqual(expect.arrayContaining(["ask_user"]));
      for (const banned of ["ask_user", "agent", "finish"]) expect(toolNames(r)).not.toContain(banned);
      expect(r.messages.filter((m) => m.role === "user")).toHaveLength(1); // its own context: only its prompt
    }
    expect(toolNames(general)).toContain("create_task");
    expect(toolNames(research)).not.toContain("create_task");
    const final = requests.at(-1)!;
    const results = final.messages
      .filter((m) => m.role === "tool")
      .map((m) => String(m.content))
      .sort();
    expect(results).toEqual(['"sub answer one"', '"sub answer two"'].map((s) => JSON.parse(s)).sort());
  });

  it("refuses recursion: a sub-agent has no agent or ask_user tool", async () => {
    const key = uniqueKey("recurse");
    await script(key, [
      { tool_calls: [{ id: "call_sub", name: "agent", arguments: { prompt: "try to recurse", tab_id: 3 } }] },
      { tool_calls: [{ name: "agent", arguments: { prompt: "deeper" } }] },
      { text: "could not recurse" },
      { text: "parent done" },
    ]);
    const id = await createConversation(key);
    expect(await run(id, "go")).toMatchObject({ status: "succeeded", output: "parent done" });
    const requests = await modelRequests(key);
    expect(systemOf(requests[1])).toContain("tab 3");
    const subToolResult = requests[2].messages.find((m) => m.role === "tool");
    expect(JSON.parse(String(subToolResult!.content))).toMatchObject({
      ok: false,
      error: { code: "unknown_tool" },
    });
    expect(String(requests[3].messages.find((m) => m.role === "tool")!.content)).toBe("could not recurse");
  });

  it("returns a clear error result when a sub-agent fails or runs out of steps, and the parent goes on", async () => {
    const key = uniqueKey("subfail");
    await script(key, [
      { tool_calls: [{ id: "call_bad", name: "agent", arguments: { prompt: "this will fail" } }] },
      { error: { status: 400, message: "model refused" } },
      { tool_calls: [{ id: "call_long", name: "agent", arguments: { prompt: "never ends" } }] },
      ...Array.from({ length: 4 }, (_, i) => ({
        tool_calls: [{ name: "create_task", arguments: { subject: `s${i}` } }],
      })),
      { text: "parent recovered" },
    ]);
    const id = await createConversation(key);
    expect(await run(id, "go")).toMatchObject({ status: "succeeded", output: "parent recovered" });
    const requests = await modelRequests(key);
    const failed = requests[2].messages.find((m) => m.role === "tool");
    expect(JSON.parse(String(failed!.content))).toMatchObject({
      ok: false,
      error: { code: "sub_agent_failed" },
    });
    const exhausted = requests
      .at(-1)!
      .messages.filter((m) => m.role === "tool")
      .at(-1);
    expect(JSON.parse(String(exhausted!.content))).toMatchObject({
      ok: false,
      error: { code: "sub_agent_step_limit" },
    });
  });

  it("is cancelled with its parent", async () => {
    const key = uniqueKey("subcancel");
    await script(key, [
      { tool_calls: [{ name: "agent", arguments: { prompt: "slow work" } }] },
      { text: "too late", hang: true },
    ]);
    const id = await createConversation(key);
    const stream = api(`/v1/conversations/${id}/messages`, { method: "POST", json: { content: "go" } });
    await eventually(async () => (await modelRequests(key)).length === 2);
    await api(`/v1/conversations/${id}/cancel`, { method: "POST" });
    const events = await readSse(await stream, untilRunEnd);
    await release(key);
    expect(events.at(-1)!.data).toMatchObject({ type: "RUN_FINISHED", outcome: { type: "cancelled" } });
  });
});
