import { describe, expect, it } from "vitest";
import { readEnv } from "../../../durable-objects/engine/config/env";
import { callTool, newWorkspaceKey, patternStream } from "../files-helpers";
import { api, createConversation, getConversation, modelRequests, script, uniqueKey } from "../helpers";

/** The result budget of this deployment (MAX_RESULT_CHARS, unset in the tests: its default). */
const { MAX_RESULT_CHARS } = readEnv({});

/** 2,000 lines of about 60 characters: about 120,000 characters, well over the result budget. */
const BIG_TEXT = Array.from(
  { length: 2000 },
  (_, i) => `row ${i + 1}: ${"lorem ipsum dolor sit amet ".repeat(2)}\n`,
).join("");

/** A conversation whose model is a fresh script key. */
async function scriptedConversation(token?: string): Promise<{ conv: string; key: string }> {
  const key = uniqueKey("spill");
  return { conv: await createConversation(key, {}, token), key };
}

/** Runs one scripted turn that calls one tool; returns what the model got back as the tool's result. */
async function runOneCall(
  c: { conv: string; key: string },
  name: string,
  args: Record<string, unknown>,
  token?: string,
): Promise<string> {
  await script(c.key, [{ tool_calls: [{ id: "call_big", name, arguments: args }] }, { text: "Read it." }]);
  const res = await api(`/v1/conversations/${c.conv}/messages`, {
    method: "POST",
    json: { content: "Go", stream: false },
    token,
  });
  expect(((await res.json()) as { status: string }).status).toBe("succeeded");
  const requests = await modelRequests(c.key);
  return requests[1].messages.find((m) => m.role === "tool")!.content as string;
}

/** The big-file read of these tests, in a new conversation. */
async function runBigRead(token?: string): Promise<{ conv: string; toolContent: string }> {
  const c = await scriptedConversation(token);
  const args = { path: "big/rows.txt", mode: "text", limit: 5000 };
  return { conv: c.conv, toolContent: await runOneCall(c, "opfs_read", args, token) };
}

describe("oversized tool results", () => {
  it("are saved to the workspace; the model gets the beginning and the path to read on", async () => {
    expect(
      (await api("/v1/files/big/rows.txt", { method: "PUT", body: new TextEncoder().encode(BIG_TEXT) }))
        .status,
    ).toBe(201);
    const { conv, toolContent } = await runBigRead();
    const path = `.cirrus/results/${conv}/call_big.txt`;
    expect(toolContent.length).toBeLessThan(MAX_RESULT_CHARS + 1000);
    expect(toolContent.startsWith('{\n  "path": "big/rows.txt"')).toBe(true);
    expect(toolContent).toContain("row 1: lorem");
    expect(toolContent).toContain(`saved in the workspace as "${path}"`);
    const offset = Number(/"offset":(\d+)/.exec(toolContent)![1]);

    // The saved file holds the whole result: the fields as JSON, then the text raw, line by line.
    const saved = await api(`/v1/files/${path}`);
    expect(saved.status).toBe(200);
    const full = await saved.text();
    expect(full).toContain('"total_lines": 2000');
    expect(full).toContain("--- content ---\nrow 1: lorem");
    expect(full).toContain("row 2000: lorem");
    expect(full.startsWith(toolContent.slice(0, toolContent.indexOf("\n\n[result too large")))).toBe(true);

    // Reading on from the offset the note gives continues exactly where the beginning stopped.
    const shownRows = [...toolContent.matchAll(/^row (\d+):/gm)].map((m) => Number(m[1]));
    const next = await callTool(conv, "opfs_read", { path, offset, limit: 3 });
    expect(next.result.content.split("\n")[0]).toMatch(new RegExp(`^row ${shownRows.at(-1)! + 1}: `));

    // The conversation's stored tool message is the short one too.
    const details = await getConversation(conv);
    const stored = (details.messages as { role: string; content: string }[]).find((m) => m.role === "tool");
    expect(stored!.content).toBe(toolContent);

    // Deleting the conversation deletes its saved results, not the file that was read.
    expect((await api(`/v1/conversations/${conv}`, { method: "DELETE" })).status).toBe(200);
    expect((await api(`/v1/files/${path}`)).status).toBe(404);
    expect((await api("/v1/files/big/rows.txt")).status).toBe(200);
  });

  it("results within the budget are passed through whole and nothing is saved", async () => {
    const key = uniqueKey("small");
    await script(key, [
      { tool_calls: [{ id: "call_small", name: "create_task", arguments: { subject: "tiny" } }] },
      { text: "ok" },
    ]);
    const conv = await createConversation(key);
    await api(`/v1/conversations/${conv}/messages`, {
      method: "POST",
      json: { content: "go", stream: false },
    });
    const toolMsg = (await modelRequests(key))[1].messages.find((m) => m.role === "tool");
    expect(JSON.parse(toolMsg!.content as string)).toMatchObject({ subject: "tiny" });
    expect((await api(`/v1/files?path=.cirrus/results/${conv}`)).status).toBe(404);
  });

  it("work for every tool: a long list_tasks result is saved as indented JSON", async () => {
    const c = await scriptedConversation();
    for (let i = 1; i <= 120; i++) {
      const subject = `task ${i} ${"x".repeat(450)}`;
      expect((await callTool(c.conv, "create_task", { subject })).status).toBe(200);
    }
    const toolContent = await runOneCall(c, "list_tasks", {});
    expect(toolContent).toContain(`.cirrus/results/${c.conv}/call_big.txt`);
    const saved = await api(`/v1/files/.cirrus/results/${c.conv}/call_big.txt`);
    const tasks = JSON.parse(await saved.text()) as { subject: string }[];
    expect(tasks).toHaveLength(120);
    expect(tasks[119].subject).toMatch(/^task 120 x+$/);
  });

  it("wrap very long lines in the saved copy and suggest pages that fit", async () => {
    const line = "z".repeat(150_000);
    await api("/v1/files/big/one-line.txt", { method: "PUT", body: new TextEncoder().encode(line) });
    const c = await scriptedConversation();
    const toolContent = await runOneCall(c, "opfs_read", { path: "big/one-line.txt", mode: "text" });
    expect(toolContent).toContain("lines over 2000 characters wrapped");
    const next = JSON.parse(/opfs_read (\{[^}]*\})/.exec(toolContent)![1]) as Record<string, unknown>;
    expect(next.limit).toBeLessThan(200);
    const page = await callTool(c.conv, "opfs_read", next);
    expect(JSON.stringify(page.result).length).toBeLessThan(MAX_RESULT_CHARS);
    expect(page.result.content).toMatch(/^z+(\nz+)+$/);
    const saved = await (await api(`/v1/files/.cirrus/results/${c.conv}/call_big.txt`)).text();
    expect(saved.replace(/\n/g, "")).toContain(line);
  });

  it("fall back to a cut result with a note when the workspace has no room to save them", async () => {
    const ws = await newWorkspaceKey("spill-full");
    const put = (path: string, body: BodyInit, headers: Record<string, string> = {}) =>
      api(`/v1/files/${path}`, { method: "PUT", body, headers, token: ws.key });
    expect((await put("big/rows.txt", new TextEncoder().encode(BIG_TEXT))).status).toBe(201);
    // Two fillers (each under the per-file limit) leave less room than the result needs.
    const filler = Math.floor((64 * 1024 * 1024 - new TextEncoder().encode(BIG_TEXT).length - 1000) / 2);
    for (const name of ["filler-1.bin", "filler-2.bin"]) {
      expect((await put(name, patternStream(filler), { "content-length": String(filler) })).status).toBe(201);
    }
    const { conv, toolContent } = await runBigRead(ws.key);
    expect(toolContent).toContain("[result truncated: showing 50000 of");
    expect(toolContent).not.toContain(".cirrus/results");
    expect((await api(`/v1/files?path=.cirrus/results/${conv}`, { token: ws.key })).status).toBe(404);
  });

  it("are readable only from the conversation that saved them, whatever another conversation's model asks", async () => {
    const ws = await newWorkspaceKey("spill-private");
    const put = await api("/v1/files/big/rows.txt", {
      method: "PUT",
      token: ws.key,
      body: new TextEncoder().encode(BIG_TEXT),
    });
    expect(put.status).toBe(201);
    const { conv } = await runBigRead(ws.key);
    const path = `.cirrus/results/${conv}/call_big.txt`;

    const thief = await scriptedConversation(ws.key);
    const attempts = {
      read: { name: "opfs_read", arguments: { path } },
      slash: { name: "opfs_read", arguments: { path: `/./${path}` } },
      list: { name: "opfs_list", arguments: { path: ".cirrus/results" } },
      listOne: { name: "opfs_list", arguments: { path: `.cirrus/results/${conv}` } },
      write: { name: "opfs_write", arguments: { path, content: "tampered" } },
      remove: { name: "opfs_delete", arguments: { path: ".cirrus" } },
    };
    await script(thief.key, [
      { tool_calls: Object.entries(attempts).map(([id, call]) => ({ id, ...call })) },
      { text: "Nothing there." },
    ]);
    const res = await api(`/v1/conversations/${thief.conv}/messages`, {
      method: "POST",
      token: ws.key,
      json: { content: "Read the other conversations' results", stream: false },
    });
    expect(((await res.json()) as { status: string }).status).toBe("succeeded");
    const tool = (await modelRequests(thief.key))[1].messages.filter((m) => m.role === "tool") as unknown as {
      tool_call_id: string;
      content: string;
    }[];
    expect(tool).toHaveLength(6);
    for (const m of tool)
      expect(JSON.parse(m.content), m.tool_call_id).toMatchObject({
        ok: false,
        error: { code: "results_private" },
      });
    expect(tool.map((m) => m.content).join("")).not.toContain("row 1: lorem");

    // The conversation that saved the result reads it, untouched.
    const own = await callTool(conv, "opfs_read", { path, limit: 3 }, ws.key);
    expect(own.status).toBe(200);
    expect(own.result.content).toContain('"path": "big/rows.txt"');
    expect(await (await api(`/v1/files/${path}`, { token: ws.key })).text()).not.toBe("tampered");
  });
});
