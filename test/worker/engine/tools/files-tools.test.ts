import { exports } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { base64, callTool, newWorkspaceKey, numberedLines } from "../../files-helpers";
import { api, createConversation } from "../../helpers";

let conv: string;
beforeAll(async () => {
  conv = await createConversation("files-tools");
});

const write = (path: string, content: string, c = conv, token?: string) =>
  callTool(c, "opfs_write", { path, content }, token);
const read = (args: Record<string, unknown>, c = conv, token?: string) =>
  callTool(c, "opfs_read", args, token);

describe("opfs_write and opfs_read", () => {
  it("writes a text file with implicit folders and reads it back", async () => {
    const w = await write("/notes/2026/todo.md", "buy milk\ncall mum\n");
    expect(w.status).toBe(200);
    expect(w.result).toEqual({ path: "notes/2026/todo.md", size: 18, type: "text/markdown; charset=utf-8" });
    const r = await read({ path: "notes/2026/todo.md" });
    expect(r.result).toMatchObject({
      mode: "text",
      content: "buy milk\ncall mum",
      total_lines: 2,
      lines: 2,
      next_offset: null,
    });
    expect(r.result.note).toBeUndefined();
  });

  it("replaces a file on a second write and counts UTF-8 bytes", async () => {
    await write("replace.txt", "first version");
    const w = await write("replace.txt", "zweite Fassung – ü");
    expect(w.result.size).toBe(new TextEncoder().encode("zweite Fassung – ü").length);
    expect((await read({ path: "replace.txt" })).result.content).toBe("zweite Fassung – ü");
  });

  it("returns a text of exactly 200 lines whole, without a paging note", async () => {
    await write("p/200.txt", numberedLines(200));
    const r = await read({ path: "p/200.txt" });
    expect(r.result.lines).toBe(200);
    expect(r.result.total_lines).toBe(200);
    expect(r.result.next_offset).toBeNull();
    expect(r.result.note).toBeUndefined();
    expect(r.result.content.split("\n").at(-1)).toBe("line 200");
  });

  it("returns the first 200 lines of a 201-line text and says how to read on", async () => {
    await write("p/201.txt", numberedLines(201));
    const r = await read({ path: "p/201.txt" });
    expect(r.result.lines).toBe(200);
    expect(r.result.total_lines).toBe(201);
    expect(r.result.next_offset).toBe(201);
    expect(r.result.content.split("\n").at(-1)).toBe("line 200");
    expect(r.result.note).toContain("Showing lines 1-200 of 201");
    expect(r.result.note).toContain('"offset":201');
    const next = await read({ path: "p/201.txt", offset: 201 });
    expect(next.result).toMatchObject({ content: "line 201", lines: 1, offset: 201, next_offset: null });
  });

  it("pages with offset and limit, and a limit over 200 returns that many lines", async () => {
    await write("p/500.txt", numberedLines(500));
    const mid = await read({ path: "p/500.txt", offset: 10, limit: 3 });
    expect(mid.result).toMatchObject({ content: "line 10\nline 11\nline 12", lines: 3, next_offset: 13 });
    expect(mid.result.note).toContain('"offset":13');
    const big = await read({ path: "p/500.txt", limit: 450 });
    expect(big.result.lines).toBe(450);
    const past = await read({ path: "p/500.txt", offset: 900 });
    expect(past.result.lines).toBe(0);
    expect(past.result.note).toContain("past its end");
  });

  it("round-trips binary content through a data URL and serves it from a signed link", async () => {
    const bytes = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0, 1, 2, 255, 254, 0, 10, 13]);
    const w = await write("img/pixel.png", `data:image/png;base64,${base64(bytes)}`);
    expect(w.result).toEqual({ path: "img/pixel.png", size: bytes.length, type: "image/png" });
    const r = await read({ path: "img/pixel.png" });
    expect(r.result.mode).toBe("blob");
    expect(r.result.url).toMatch(/^https:\/\/cirrus\.test\/files\/[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
    expect(r.result.expires_at).toBeGreaterThan(Date.now());
    const res = await exports.default.fetch(r.result.url);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("image/png");
    expect(new Uint8Array(await res.arrayBuffer())).toEqual(bytes);
  });

  it("decodes percent-encoded data URLs as well as base64 ones", async () => {
    const w = await write("d/hello.txt", "data:text/plain;charset=utf-8,hello%20world");
    expect(w.result).toMatchObject({ size: 11, type: "text/plain;charset=utf-8" });
    expect((await read({ path: "d/hello.txt" })).result.content).toBe("hello world");
    const bad = await write("d/bad.bin", "data:application/octet-stream;base64,@@@");
    expect(bad.status).toBe(422);
    expect(bad.error?.code).toBe("invalid_data_url");
  });

  it("auto-detects text in a file of unknown type and binary when it holds NUL bytes", async () => {
    const text = new TextEncoder().encode("plain words\nsecond line\n");
    await write("auto/notes", `data:application/octet-stream;base64,${base64(text)}`);
    const t = await read({ path: "auto/notes" });
    expect(t.result).toMatchObject({ mode: "text", content: "plain words\nsecond line" });
    await write("auto/blob", `data:application/octet-stream;base64,${base64(Uint8Array.from([1, 0, 2, 0]))}`);
    expect((await read({ path: "auto/blob" })).result.mode).toBe("blob");
  });

  it("forces text or blob with mode", async () => {
    const forcedText = await read({ path: "img/pixel.png", mode: "text" });
    expect(forcedText.result.mode).toBe("text");
    expect(forcedText.result.content).toContain("PNG");
    const forcedBlob = await read({ path: "notes/2026/todo.md", mode: "blob" });
    expect(forcedBlob.result.mode).toBe("blob");
    const res = await exports.default.fetch(forcedBlob.result.url);
    expect(await res.text()).toBe("buy milk\ncall mum\n");
  });

  it("refuses bad read arguments and missing files", async () => {
    expect((await read({ path: "p/200.txt", offset: 0 })).status).toBe(400);
    expect((await read({ path: "p/200.txt", mode: "hex" })).status).toBe(400);
    const missing = await read({ path: "nope/none.txt" });
    expect(missing.status).toBe(404);
    expect(missing.error?.message).toContain("opfs_list");
    const folder = await read({ path: "notes/2026" });
    expect(folder.error).toMatchObject({
      code: "is_a_directory",
      message: expect.stringContaining("opfs_list"),
    });
  });
});

describe("opfs_list and opfs_delete", () => {
  it("lists the root by default with folders and files, sizes and modified times", async () => {
    const c = await createConversation("files-list");
    await write("a.txt", "12345", c);
    await write("dir/x.txt", "abc", c);
    await write("dir/sub/y.txt", "defg", c);
    const root = await callTool(c, "opfs_list", {});
    const names = root.result.entries.map((e: { name: string }) => e.name);
    expect(names).toEqual(expect.arrayContaining(["a.txt", "dir"]));
    const file = root.result.entries.find((e: { name: string }) => e.name === "a.txt");
    expect(file).toMatchObject({ kind: "file", size: 5 });
    expect(file.modified).toBeGreaterThan(Date.now() - 60_000);
    const dir = root.result.entries.find((e: { name: string }) => e.name === "dir");
    expect(dir).toMatchObject({ kind: "directory", size: 7 });
    const sub = await callTool(c, "opfs_list", { path: "dir" });
    expect(sub.result.path).toBe("dir");
    expect(sub.result.entries).toEqual([
      { name: "sub", kind: "directory", size: 4, modified: expect.any(Number) },
      { name: "x.txt", kind: "file", size: 3, modified: expect.any(Number) },
    ]);
  });

  it("says when a listed path is a file or does not exist", async () => {
    const onFile = await callTool(conv, "opfs_list", { path: "replace.txt" });
    expect(onFile.error?.code).toBe("not_a_directory");
    const missing = await callTool(conv, "opfs_list", { path: "ghost" });
    expect(missing.status).toBe(404);
  });

  it("deletes a file, then a folder with everything under it", async () => {
    await write("trash/a.txt", "a");
    await write("trash/deep/b.txt", "b");
    await write("trash/deep/c.txt", "c");
    const one = await callTool(conv, "opfs_delete", { path: "trash/a.txt" });
    expect(one.result).toEqual({ path: "trash/a.txt", kind: "file", deleted: true, files: 1 });
    const all = await callTool(conv, "opfs_delete", { path: "trash" });
    expect(all.result).toEqual({ path: "trash", kind: "directory", deleted: true, files: 2 });
    expect((await callTool(conv, "opfs_list", { path: "trash" })).status).toBe(404);
    expect((await read({ path: "trash/deep/b.txt" })).status).toBe(404);
    expect((await callTool(conv, "opfs_delete", { path: "trash" })).status).toBe(404);
  });

  it("keeps files and folders apart: no file inside a file, no file over a folder", async () => {
    await write("plain", "I am a file");
    const inside = await write("plain/child.txt", "x");
    expect(inside.error?.code).toBe("not_a_directory");
    await write("folder/child.txt", "x");
    const over = await write("folder", "x");
    expect(over.error?.code).toBe("is_a_directory");
  });
});

describe("paths and workspaces", () => {
  const bad = [
    ["../escape.txt", "..".concat("")],
    ["a/../../b.txt", ".."],
    ["a//b.txt", "empty"],
    ["a/\u0000b.txt", "control"],
    ["a/b\nc.txt", "control"],
    ["a\\b.txt", '"\\"'],
    [`${"n".repeat(256)}.txt`, "255 bytes"],
    [`${"d/".repeat(40)}f.txt`, "deeper"],
    ["/", "root"],
  ] as const;

  it.each(bad)("refuses the path %j in every tool", async (path, why) => {
    for (const [tool, args] of [
      ["opfs_write", { path, content: "x" }],
      ["opfs_read", { path }],
      ["opfs_delete", { path }],
    ] as const) {
      const r = await callTool(conv, tool, args);
      expect(r.status, `${tool} ${path}`).toBe(422);
      expect(r.error?.code).toBe("invalid_path");
      expect(r.error?.message).toContain(why);
    }
    if (path !== "/") expect((await callTool(conv, "opfs_list", { path })).error?.code).toBe("invalid_path");
  });

  it("treats paths case-sensitively", async () => {
    await write("Case/File.txt", "upper");
    await write("case/file.txt", "lower");
    expect((await read({ path: "Case/File.txt" })).result.content).toBe("upper");
    expect((await read({ path: "case/file.txt" })).result.content).toBe("lower");
    expect((await read({ path: "CASE/FILE.TXT" })).status).toBe(404);
  });

  it("never shows one workspace's files to another", async () => {
    const b = await newWorkspaceKey("files-isolation");
    const convB = await createConversation("files-b", {}, b.key);
    await write("shared-name.txt", "workspace default", conv);
    await write("shared-name.txt", "workspace B", convB, b.key);
    expect((await read({ path: "shared-name.txt" }, conv)).result.content).toBe("workspace default");
    expect((await read({ path: "shared-name.txt" }, convB, b.key)).result.content).toBe("workspace B");
    const listB = await callTool(convB, "opfs_list", {}, b.key);
    expect(listB.result.entries.map((e: { name: string }) => e.name)).toEqual(["shared-name.txt"]);
    for (const path of ["../default/shared-name.txt", "../../ws/default/notes/2026/todo.md"]) {
      expect((await read({ path }, convB, b.key)).error?.code).toBe("invalid_path");
    }
    expect((await read({ path: "notes/2026/todo.md" }, convB, b.key)).status).toBe(404);
    expect((await callTool(convB, "opfs_delete", { path: "notes" }, b.key)).status).toBe(404);
    expect((await read({ path: "notes/2026/todo.md" })).status).toBe(200);
    // B's key cannot call tools in the default workspace's conversation either.
    const cross = await api(`/v1/conversations/${conv}/tools/opfs_list`, {
      method: "POST",
      json: {},
      token: b.key,
    });
    expect(cross.status).toBe(404);
  });
});
