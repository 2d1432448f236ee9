import { describe, expect, it } from "vitest";
import { filesWritten, writtenFiles } from "../../../../durable-objects/engine/files/written-files";
import type { StoredMessage } from "../../../../durable-objects/engine/store/message-store";

describe("which files a tool call wrote", () => {
  it("names the file of a successful opfs_write or screenshot", () => {
    expect(filesWritten("opfs_write", '{"path":"/reports/q3.md","size":3,"type":"text/markdown"}')).toEqual([
      { path: "reports/q3.md" },
    ]);
    expect(filesWritten("screenshot", '{"saved_to":"screenshots/a.png","description":"x"}')).toEqual([
      { path: "screenshots/a.png" },
    ]);
  });

  it("names nothing for other tools, however they are called or what they return", () => {
    expect(filesWritten("save_notes", '{"path":"notes.md"}')).toEqual([]);
    expect(filesWritten("export_csv", '{"path":"out.csv"}')).toEqual([]);
    expect(filesWritten("opfs_read", '{"path":"a.md","content":"x"}')).toEqual([]);
    expect(filesWritten("screenshot", '{"saved_to":null,"description":"not saved"}')).toEqual([]);
  });

  it("names nothing for failed, malformed or unsafe results", () => {
    expect(filesWritten("opfs_write", '{"path":"a.md"}', true)).toEqual([]);
    expect(filesWritten("opfs_write", '{"ok":false,"error":{"code":"quota_exceeded"}}')).toEqual([]);
    expect(filesWritten("opfs_write", "not json")).toEqual([]);
    expect(filesWritten("opfs_write", '{"path":"../../etc/passwd"}')).toEqual([]);
  });

  it("collects the conversation's written files from its messages by the same rule", () => {
    const call = (id: string, name: string) => ({
      id,
      type: "function",
      function: { name, arguments: "{}" },
    });
    const messages = [
      {
        message: {
          role: "assistant",
          content: null,
          tool_calls: [call("a", "opfs_write"), call("b", "save_x")],
        },
      },
      { message: { role: "tool", tool_call_id: "a", content: '{"path":"out/a.md"}' } },
      { message: { role: "tool", tool_call_id: "b", content: '{"path":"out/b.md"}' } },
    ] as unknown as StoredMessage[];
    expect([...writtenFiles(messages)]).toEqual(["out/a.md"]);
  });
});
