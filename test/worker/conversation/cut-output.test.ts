import { describe, expect, it } from "vitest";
import { api, createConversation, modelRequests, script, uniqueKey } from "../helpers";

type Message = { role: string; content: unknown; tool_call_id?: string };
const run = async (id: string) =>
  (await (
    await api(`/v1/conversations/${id}/messages`, {
      method: "POST",
      json: { content: "write it", stream: false },
    })
  ).json()) as { status: string; output: unknown };

describe("a model turn cut at the output limit (finish_reason length)", () => {
  it("answers a call whose arguments were cut with output_truncated, and does not run it", async () => {
    const key = uniqueKey("cut-call");
    await script(key, [
      {
        malformed_tool_call: {
          id: "w",
          name: "opfs_write",
          arguments: '{"path":"cut-report.md","content":"# Rep',
        },
        finish_reason: "length",
      },
      { text: "written in parts" },
    ]);
    const id = await createConversation(key);
    expect(await run(id)).toMatchObject({ status: "succeeded", output: "written in parts" });
    const last = (await modelRequests(key)).at(-1)!.messages as Message[];
    const result = JSON.parse(String(last.find((m) => m.tool_call_id === "w")?.content));
    expect(result.error.code).toBe("output_truncated");
    expect(result.error.message).toContain("write long content in parts");
    expect((await api("/v1/files/cut-report.md")).status).toBe(404);
  });

  it("sends a cut answer back to be given again, shorter, instead of ending the run with it", async () => {
    const key = uniqueKey("cut-answer");
    await script(key, [
      { text: "The report. Section 1 is about", finish_reason: "length" },
      { text: "See report.md." },
    ]);
    const id = await createConversation(key);
    expect(await run(id)).toMatchObject({ status: "succeeded", output: "See report.md." });
    const second = (await modelRequests(key))[1].messages as Message[];
    expect(second.at(-2)).toMatchObject({ role: "assistant", content: "The report. Section 1 is about" });
    expect(second.at(-1)?.role).toBe("system");
    expect(String(second.at(-1)?.content)).toContain("cut off");
    expect(String(second.at(-1)?.content)).toContain("opfs_write");
  });

  it("takes the third cut answer as it is: the run is told twice at most", async () => {
    const key = uniqueKey("cut-thrice");
    await script(key, [
      { text: "one", finish_reason: "length" },
      { text: "two", finish_reason: "length" },
      { text: "three", finish_reason: "length" },
      { text: "never asked" },
    ]);
    const id = await createConversation(key);
    expect(await run(id)).toMatchObject({ status: "succeeded", output: "three" });
    expect(await modelRequests(key)).toHaveLength(3);
  });

  it("does not spend an output schema's reminders on its notes about cut answers", async () => {
    const key = uniqueKey("cut-schema");
    await script(key, [
      { text: "one", finish_reason: "length" },
      { text: "two", finish_reason: "length" },
      { text: "here it is" },
      { text: '{"title":"Short"}' },
    ]);
    const id = await createConversation(key, { output_schema: { type: "object", required: ["title"] } });
    expect(await run(id)).toMatchObject({ status: "succeeded", output: { title: "Short" } });
    const last = (await modelRequests(key)).at(-1)!.messages as Message[];
    expect(String(last.at(-1)?.content)).toContain("This run needs a structured result");
  });

  it("ends the run as failed content_filtered when the provider's filter stopped the answer", async () => {
    const key = uniqueKey("filtered");
    await script(key, [{ text: "Here is how to", finish_reason: "content_filter" }, { text: "never asked" }]);
    const id = await createConversation(key);
    expect(await run(id)).toMatchObject({
      status: "failed",
      output: null,
      error: { code: "content_filtered" },
    });
    expect(await modelRequests(key)).toHaveLength(1);
  });

  it("takes a cut answer on the run's last allowed turn as it is, and a call cut before its arguments as cut", async () => {
    const key = uniqueKey("cut-last");
    await script(key, [{ text: "The report, cut", finish_reason: "length" }]);
    const id = await createConversation(key, { max_steps: 1 });
    expect(await run(id)).toMatchObject({ status: "succeeded", output: "The report, cut" });

    const empty = uniqueKey("cut-empty-args");
    await script(empty, [
      { malformed_tool_call: { id: "e", name: "list_tabs", arguments: "" }, finish_reason: "length" },
      { text: "ok" },
    ]);
    await run(await createConversation(empty));
    const last = (await modelRequests(empty)).at(-1)!.messages as Message[];
    expect(JSON.parse(String(last.find((m) => m.tool_call_id === "e")?.content)).error.code).toBe(
      "output_truncated",
    );
  });
});
