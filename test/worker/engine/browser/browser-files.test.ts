import { describe, expect, it } from "vitest";
import { asVisitor, results, visitorSession, workspaceWithKeys } from "../../conversation/visitor-helpers";
import { SseReader } from "../../../support/sse";
import { api, createConversation, eventually, readSse, script, uniqueKey, untilRunEnd } from "../../helpers";
import { BROWSER_TEST_TIMEOUT_MS, ok, page, tool } from "./browser-helpers";

const T = BROWSER_TEST_TIMEOUT_MS;
/** What /files/attachment sends (test/support/guard-pages.ts): every byte value twice, then a marker. */
const ATTACHMENT = new Uint8Array([
  ...Array.from({ length: 512 }, (_, i) => i % 256),
  ...new TextEncoder().encode("end of file\n"),
]);
/** The same page server under a host name outside an allowed list of 127.0.0.1. */
const outside = (path: string) => page(path).replace("127.0.0.1", "localhost");

async function sha256(bytes: Uint8Array): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return [...digest].map((b) => b.toString(16).padStart(2, "0")).join("");
}

async function putFile(path: string, bytes: Uint8Array, type: string, token?: string): Promise<void> {
  const res = await api(`/v1/files/${path}`, {
    method: "PUT",
    body: bytes,
    headers: { "content-type": type },
    token,
  });
  expect(res.status).toBeLessThan(300);
}

async function fileBytes(path: string, token?: string): Promise<Uint8Array> {
  const res = await api(`/v1/files/${path}`, { token });
  expect(res.status).toBe(200);
  return new Uint8Array(await res.arrayBuffer());
}

/** The methods of the requests the page server saw for a marker. */
async function hits(id: string): Promise<string[]> {
  const res = await fetch(page(`/guard/hits?id=${encodeURIComponent(id)}`));
  return ((await res.json()) as { methods: string[] }).methods;
}

/** Adds a link to `href` with id `id` to the active tab's page. */
const addLink = (conv: string, id: string, href: string) =>
  ok(conv, "execute_script", {
    target: "page",
    world: "MAIN",
    code: `const a = document.createElement("a"); a.id = ${JSON.stringify(id)}; a.href = ${JSON.stringify(href)}; a.textContent = "get"; document.body.append(a); 1`,
  });

describe("upload_file", () => {
  it(
    "puts a workspace file's exact bytes, name and type into a page's form, firing input and change",
    async () => {
      // 700 KB: sent to the page in more than one chunk.
      const bytes = Uint8Array.from({ length: 700_000 }, (_, i) => (i * 31 + 7) % 256);
      await putFile("reports/q3 figures.bin", bytes, "application/x-figures");
      const id = uniqueKey("upload");
      const conv = await createConversation("echo");
      await ok(conv, "open_tab", { url: page(`/files/upload?id=${id}`) });
      const put = await ok(conv, "upload_file", { selector: "#file", path: "reports/q3 figures.bin" });
      expect(put.file).toEqual({ name: "q3 figures.bin", size: 700_000, type: "application/x-figures" });
      const shown = await ok(conv, "get_tab_content", { tab_id: 1, selector: "#events" });
      expect(shown.content).toContain("input:q3 figures.bin:700000 change:q3 figures.bin:700000");
      await ok(conv, "click", { selector: "#send" });
      const got = (await (await fetch(page(`/files/uploads?id=${id}`))).json()) as { files: unknown[] };
      expect(got.files).toEqual([
        { name: "q3 figures.bin", type: "application/x-figures", size: 700_000, sha256: await sha256(bytes) },
      ]);
    },
    T,
  );

  it(
    "takes the selectors get_tab_content writes, a stamped one included, and fills that input only",
    async () => {
      await putFile("scan.pdf", new TextEncoder().encode("%PDF scan"), "application/pdf");
      await putFile("cv.txt", new TextEncoder().encode("my cv"), "text/plain");
      const conv = await createConversation("echo");
      const tab = await ok(conv, "open_tab", { url: page("/files/attach") });
      const read = await ok(conv, "get_tab_content", { tab_id: tab.id });
      const selectorOf = (label: string) =>
        new RegExp(`\\[file field: ${label}\\] \\{([^}]+)\\}`).exec(read.content)?.[1];
      const [photo, scan, cv] = ["Photo", "Scan", "CV"].map(selectorOf);
      expect([photo, scan, cv]).toEqual([
        expect.stringMatching(/^\[data-c="\d+"\]$/),
        expect.stringMatching(/^\[data-c="\d+"\]$/),
        'input[name="cv"]',
      ]);
      const put = await ok(conv, "upload_file", { selector: scan, path: "scan.pdf" });
      expect(put).toMatchObject({
        selector: scan,
        file: { name: "scan.pdf", size: 9, type: "application/pdf" },
      });
      await ok(conv, "upload_file", { selector: cv, path: "cv.txt" });
      const events = await ok(conv, "get_tab_content", { tab_id: tab.id, selector: "#events" });
      expect(events.content).toBe("Scan=scan.pdf cv=cv.txt");
    },
    T,
  );

  it(
    "says clearly when the file is missing, the element is no file input, or the file is over the cap",
    async () => {
      await putFile("big.bin", new Uint8Array(1024 * 1024 + 1), "application/octet-stream");
      await putFile("small.txt", new TextEncoder().encode("hi"), "text/plain");
      const conv = await createConversation("echo");
      await ok(conv, "open_tab", { url: page("/files/upload?id=errors") });
      const missing = await tool(conv, "upload_file", { selector: "#file", path: "nope/none.txt" });
      expect(missing).toMatchObject({ status: 404, error: { code: "not_found" } });
      expect(missing.error?.message).toBe('No file at "nope/none.txt" in the workspace (see opfs_list).');
      const notInput = await tool(conv, "upload_file", { selector: "#text", path: "small.txt" });
      expect(notInput).toMatchObject({ status: 422, error: { code: "not_file_input" } });
      expect(notInput.error?.message).toBe('"#text" is not a file input (<input type="file">).');
      const noElement = await tool(conv, "upload_file", { selector: "#absent", path: "small.txt" });
      expect(noElement).toMatchObject({ status: 404, error: { code: "not_found" } });
      const big = await tool(conv, "upload_file", { selector: "#file", path: "big.bin" });
      expect(big).toMatchObject({ status: 422, error: { code: "file_too_large" } });
      expect(big.error?.message).toBe('"big.bin" is 1048577 bytes; upload_file sends at most 1048576.');
      const traversal = await tool(conv, "upload_file", { selector: "#file", path: "../outside.txt" });
      expect(traversal).toMatchObject({ status: 422, error: { code: "invalid_path" } });
    },
    T,
  );
});

describe("downloads", () => {
  it(
    "saves what a page downloads into downloads/ with its bytes, tells the call and emits file_downloaded",
    async () => {
      const key = uniqueKey("download");
      await script(key, [
        { tool_calls: [{ id: "c1", name: "open_tab", arguments: { url: page("/files/links") } }] },
        { tool_calls: [{ id: "c2", name: "click", arguments: { selector: "#attachment" } }] },
        { text: "Saved." },
      ]);
      const conv = await createConversation(key);
      const res = await api(`/v1/conversations/${conv}/messages`, {
        method: "POST",
        json: { content: "go" },
      });
      const events = await readSse(res, untilRunEnd, 60_000);
      const url = page("/files/attachment?name=report.bin");
      const file = {
        path: "downloads/report.bin",
        size: ATTACHMENT.length,
        content_type: "application/octet-stream",
        url,
      };
      const clicked = events.find((e) => e.data.type === "TOOL_CALL_RESULT" && e.data.toolCallId === "c2");
      expect(JSON.parse(String(clicked?.data.content))).toMatchObject({
        url: page("/files/links"),
        downloads: [file],
      });
      const custom = events.filter((e) => e.data.type === "CUSTOM" && e.data.name === "file_downloaded");
      expect(custom.map((e) => e.data.value)).toEqual([file]);
      expect(await fileBytes("downloads/report.bin")).toEqual(ATTACHMENT);

      // The same name again is kept apart; a type no page shows is a download too.
      const again = await ok(conv, "click", { selector: "#attachment" });
      expect(again.downloads).toEqual([{ ...file, path: "downloads/report (2).bin" }]);
      const csv = await ok(conv, "click", { selector: "#save-csv" });
      expect(csv.downloads).toMatchObject([
        { path: "downloads/plain.csv", size: 21, content_type: "text/csv" },
      ]);
      expect(new TextDecoder().decode(await fileBytes("downloads/plain.csv"))).toBe(
        "name,price\nteapot,12\n",
      );
    },
    T,
  );

  it(
    "refuses downloads over the size cap (declared or read) and past the count per run, and says why",
    async () => {
      const conv = await createConversation("echo");
      await ok(conv, "open_tab", { url: page("/files/links") });
      await addLink(conv, "declared", page("/files/big?bytes=70000"));
      await addLink(conv, "streamed", page("/files/big?bytes=70000&chunked=1"));
      const declared = await ok(conv, "click", { selector: "#declared" });
      expect(declared.downloads).toEqual([
        {
          url: page("/files/big?bytes=70000"),
          refused: "it is 70000 bytes, over the 65536-byte limit",
        },
      ]);
      const streamed = await ok(conv, "click", { selector: "#streamed" });
      expect(streamed.downloads).toEqual([
        {
          url: page("/files/big?bytes=70000&chunked=1"),
          refused: "it is over the 65536-byte limit",
        },
      ]);
      expect((await api("/v1/files/downloads/big.bin")).status).toBe(404);
      // The streamed one counted (it was read); two more fit into this conversation's direct calls.
      for (let i = 0; i < 2; i++)
        expect((await ok(conv, "click", { selector: "#attachment" })).downloads).toHaveLength(1);
      const over = await ok(conv, "click", { selector: "#attachment" });
      expect(over.downloads).toEqual([
        {
          url: page("/files/attachment?name=report.bin"),
          refused: "this run already saved 3 downloads (the limit per run)",
        },
      ]);
    },
    T,
  );

  it(
    "never fetches a download from outside allowed_domains",
    async () => {
      const conv = await createConversation("echo", { allowed_domains: ["127.0.0.1"] });
      await ok(conv, "open_tab", { url: page("/files/links") });
      await addLink(conv, "far", outside("/files/attachment?name=far.bin"));
      const far = await tool(conv, "click", { selector: "#far" });
      expect(far).toMatchObject({ status: 422, error: { code: "navigation_refused" } });
      expect(await hits("attachment-far.bin")).toEqual([]);
      expect((await api("/v1/files/downloads/far.bin")).status).toBe(404);
    },
    T,
  );
});

describe("downloads no tool call started", () => {
  it(
    "saves what a person's click in the live view downloads into downloads/, with file_downloaded and the size cap",
    async () => {
      const conv = await createConversation("echo");
      await ok(conv, "open_tab", { url: page("/files/links") });
      const name = `${uniqueKey("person")}.bin`;
      const mark = uniqueKey("big");
      await addLink(conv, "mine", page(`/files/attachment?name=${name}`));
      await addLink(conv, "big", page(`/files/big?bytes=${70 * 1024}&id=${mark}`));
      const centre = async (id: string) =>
        (
          await ok(conv, "execute_script", {
            target: "page",
            code: `(() => { const r = document.getElementById(${JSON.stringify(id)}).getBoundingClientRect(); return [Math.round(r.x + r.width / 2), Math.round(r.y + r.height / 2)]; })()`,
          })
        ).result as [number, number];
      const click = async ([x, y]: [number, number]) => {
        const res = await api(`/v1/conversations/${conv}/tabs/1/input`, {
          method: "POST",
          json: { type: "click", x, y },
        });
        expect(res.status).toBe(200);
      };
      const [mine, big] = [await centre("mine"), await centre("big")];

      // Over the size cap (64 KiB in the tests): asked for, and refused.
      await click(big);
      await eventually(async () => (await hits(`big-${mark}`)).length === 1, 20_000);
      await click(mine);
      const path = `downloads/${name}`;
      await eventually(async () => (await api(`/v1/files/${path}`)).status === 200, 20_000);
      expect(await fileBytes(path)).toEqual(ATTACHMENT);
      expect((await api("/v1/files/downloads/big.bin")).status).toBe(404);

      const replay = new SseReader((await api(`/v1/conversations/${conv}/events?after=0`)).body!);
      await replay.untilText(": heartbeat");
      await replay.close();
      const announced = replay.text
        .split("\n")
        .filter((line) => line.startsWith("data:") && line.includes("file_downloaded"))
        .map((line) => JSON.parse(line.slice(5)).value);
      expect(announced).toEqual([
        {
          path,
          size: ATTACHMENT.length,
          content_type: "application/octet-stream",
          url: page(`/files/attachment?name=${name}`),
        },
      ]);
    },
    T,
  );
});

describe("files through a widget visitor's browser", () => {
  it(
    "keeps a visitor's downloads and uploads inside its own folder",
    async () => {
      const w = await workspaceWithKeys("visitor-files");
      await putFile("private/a.txt", new TextEncoder().encode("owner's plans"), "text/plain", w.sk);
      const key = uniqueKey("visitor-files");
      await api("/v1/settings", {
        method: "PUT",
        token: w.sk,
        json: { agent: { model: key }, widget: { tools: ["open_tab", "click", "upload_file"] } },
      });
      const id = uniqueKey("visitor-upload");
      await script(key, [
        { tool_calls: [{ id: "c1", name: "open_tab", arguments: { url: page("/files/links") } }] },
        { tool_calls: [{ id: "c2", name: "click", arguments: { selector: "#attachment" } }] },
        { tool_calls: [{ id: "c3", name: "open_tab", arguments: { url: page(`/files/upload?id=${id}`) } }] },
        {
          tool_calls: [
            { id: "c4", name: "upload_file", arguments: { selector: "#file", path: "private/a.txt" } },
            { id: "c5", name: "upload_file", arguments: { selector: "#file", path: "downloads/report.bin" } },
          ],
        },
        { text: "Done." },
      ]);
      const visitor = await visitorSession(w.pk, w.sk);
      const res = await asVisitor(`/v1/conversations/${visitor.conv}/messages`, w.pk, visitor.token, {
        method: "POST",
        json: { content: "get the report", stream: false },
      });
      expect(res.status).toBe(200);
      const saved = `visitors/${visitor.visitorId}/downloads/report.bin`;
      const got = await results(key);
      expect(got.c2).toMatchObject({ downloads: [{ path: saved, size: ATTACHMENT.length }] });
      expect(got.c4).toMatchObject({ error: { code: "not_found" } });
      expect(got.c5).toMatchObject({ file: { name: "report.bin", size: ATTACHMENT.length } });
      expect(await fileBytes(saved, w.sk)).toEqual(ATTACHMENT);
      expect((await api("/v1/files/downloads/report.bin", { token: w.sk })).status).toBe(404);
    },
    T,
  );
});
