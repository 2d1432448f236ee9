import { env, exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { filesConfig } from "../../../durable-objects/engine/config/files-config";
import { fileLinkRoots } from "../../../durable-objects/engine/config/keys-config";
import { LinkSigner } from "../../../durable-objects/engine/files/signed-links";
import { callTool, newWorkspaceKey, patternStream } from "../files-helpers";
import { api, createConversation } from "../helpers";

const MiB = 1024 * 1024;

const put = (path: string, body: BodyInit, headers: Record<string, string> = {}, token?: string) =>
  api(`/v1/files/${path}`, { method: "PUT", body, headers, token });

/** Reads a body, checking byte i equals (start + i) % 251; returns the byte count or -1 on a mismatch. */
async function checkPattern(body: ReadableStream<Uint8Array>, start = 0): Promise<number> {
  let n = 0;
  let ok = true;
  for await (const chunk of body) {
    for (let i = 0; i < chunk.length; i++) if (chunk[i] !== (start + n + i) % 251) ok = false;
    n += chunk.length;
  }
  return ok ? n : -1;
}

describe("the files API", () => {
  it("uploads, downloads with the stored type, replaces, lists and deletes", async () => {
    const up = await put("docs/readme.md", "# Hello\n", { "content-type": "text/markdown" });
    expect(up.status).toBe(201);
    expect(await up.json()).toMatchObject({ path: "docs/readme.md", size: 8, type: "text/markdown" });
    const down = await api("/v1/files/docs/readme.md");
    expect(down.status).toBe(200);
    expect(down.headers.get("content-type")).toBe("text/markdown");
    expect(down.headers.get("accept-ranges")).toBe("bytes");
    expect(down.headers.get("content-security-policy")).toBe("sandbox");
    expect(down.headers.get("content-disposition")).toBe("inline; filename*=UTF-8''readme.md");
    expect(await down.text()).toBe("# Hello\n");
    const again = await put("docs/readme.md", new TextEncoder().encode("# Hello again\n"));
    expect(again.status).toBe(200);
    expect(((await again.json()) as { type: string }).type).toBe("text/markdown; charset=utf-8");
    const list = await api("/v1/files?path=docs");
    expect(await list.json()).toMatchObject({
      path: "docs",
      entries: [{ name: "readme.md", kind: "file", size: 14 }],
      truncated: false,
    });
    const del = await api("/v1/files/docs", { method: "DELETE" });
    expect(await del.json()).toEqual({ path: "docs", kind: "directory", deleted: true, files: 1 });
    expect((await api("/v1/files/docs/readme.md")).status).toBe(404);
    expect((await api("/v1/files/docs", { method: "DELETE" })).status).toBe(404);
  });

  it("guesses the type from the name when the upload does not say", async () => {
    await put("guess/data.json", new TextEncoder().encode('{"a":1}'));
    expect((await api("/v1/files/guess/data.json")).headers.get("content-type")).toBe(
      "application/json; charset=utf-8",
    );
    await put("guess/blob", new Uint8Array([0, 1, 2]), {
      "content-type": "application/x-www-form-urlencoded",
    });
    expect((await api("/v1/files/guess/blob")).headers.get("content-type")).toBe("application/octet-stream");
  });

  it("serves byte ranges with 206 and refuses ranges outside the file with 416", async () => {
    await put("range.txt", "0123456789");
    const cases: [string, number, string, string | null][] = [
      ["bytes=0-3", 206, "0123", "bytes 0-3/10"],
      ["bytes=7-", 206, "789", "bytes 7-9/10"],
      ["bytes=-2", 206, "89", "bytes 8-9/10"],
      ["bytes=5-100", 206, "56789", "bytes 5-9/10"],
      ["bytes=0-1,4-5", 200, "0123456789", null],
      ["pages=1", 200, "0123456789", null],
    ];
    for (const [range, status, body, contentRange] of cases) {
      const res = await api("/v1/files/range.txt", { headers: { range } });
      expect(res.status, range).toBe(status);
      expect(await res.text()).toBe(body);
      expect(res.headers.get("content-range")).toBe(contentRange);
      if (status === 206) expect(res.headers.get("content-length")).toBe(String(body.length));
    }
    for (const range of ["bytes=10-", "bytes=20-30", "bytes=-0"]) {
      const res = await api("/v1/files/range.txt", { headers: { range } });
      expect(res.status, range).toBe(416);
      expect(res.headers.get("content-range")).toBe("bytes */10");
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe("range_not_satisfiable");
    }
    const head = await api("/v1/files/range.txt", { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(head.headers.get("content-length")).toBe("10");
    expect(await head.text()).toBe("");
  });

  it("streams a 20 MB upload of unknown length to storage and back, also by range", async () => {
    const size = 20 * MiB + 123;
    const up = await put("big/stream.bin", patternStream(size));
    expect(up.status).toBe(201);
    expect(await up.json()).toMatchObject({ path: "big/stream.bin", size, type: "application/octet-stream" });
    const down = await api("/v1/files/big/stream.bin");
    expect(down.headers.get("content-length")).toBe(String(size));
    expect(await checkPattern(down.body!)).toBe(size);
    const tail = await api("/v1/files/big/stream.bin", { headers: { range: `bytes=${size - 1000}-` } });
    expect(tail.status).toBe(206);
    expect(await checkPattern(tail.body!, size - 1000)).toBe(1000);
    const listed = await api("/v1/files?path=big");
    expect(((await listed.json()) as { entries: { size: number }[] }).entries[0].size).toBe(size);
  });

  it("streams an upload with a Content-Length straight through", async () => {
    const size = 6 * MiB + 7;
    const up = await put("big/known.bin", patternStream(size), { "content-length": String(size) });
    expect(up.status).toBe(201);
    expect(((await up.json()) as { size: number }).size).toBe(size);
    expect(await checkPattern((await api("/v1/files/big/known.bin")).body!)).toBe(size);
  });

  it("refuses bad paths with 400 and never reaches outside the workspace", async () => {
    for (const path of [
      "x%2F..%2F..%2Fsecret",
      "a/b%2F%2E%2E/%2E%2E%2F%2E%2E/x",
      "a//b",
      "a%00b",
      "a%5Cb",
      "%E0%A4%A",
    ]) {
      const res = await put(path, "x");
      expect(res.status, path).toBe(400);
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe("invalid_path");
    }
    expect((await api("/v1/files?path=../")).status).toBe(400);
    expect((await api("/v1/files/x.txt", { token: null })).status).toBe(401);
    expect((await put("x.txt", "x", {}, "sk_default_notarealkeynotarealkey")).status).toBe(401);
  });

  it("scopes every route to the caller's workspace", async () => {
    const b = await newWorkspaceKey("files-api-b");
    await put("mine.txt", "default's");
    expect((await put("theirs.txt", "B's", {}, b.key)).status).toBe(201);
    expect((await api("/v1/files/mine.txt", { token: b.key })).status).toBe(404);
    expect((await api("/v1/files/mine.txt", { method: "DELETE", token: b.key })).status).toBe(404);
    expect((await api("/v1/files/mine.txt")).status).toBe(200);
    const listB = (await (await api("/v1/files", { token: b.key })).json()) as {
      entries: { name: string }[];
    };
    expect(listB.entries.map((e) => e.name)).toEqual(["theirs.txt"]);
    expect((await api("/v1/files/theirs.txt")).status).toBe(404);
  });

  it("refuses a file over the per-file limit before reading it, and a stream that grows past it", async () => {
    const declared = await put("limits/huge.bin", "x", { "content-length": String(40 * MiB) });
    expect(declared.status).toBe(413);
    expect(((await declared.json()) as { error: { code: string } }).error.code).toBe("file_too_large");
    const streamed = await put("limits/growing.bin", patternStream(33 * MiB));
    expect(streamed.status).toBe(413);
    expect((await api("/v1/files/limits/growing.bin")).status).toBe(404);
    expect((await api("/v1/files?path=limits")).status).toBe(404);
  });

  it("keeps the workspace total under its limit even for concurrent uploads", async () => {
    const c = await newWorkspaceKey("files-quota");
    expect(
      (await put("base.bin", patternStream(30 * MiB), { "content-length": String(30 * MiB) }, c.key)).status,
    ).toBe(201);
    const size = 20 * MiB;
    const [a, b] = await Promise.all(
      ["one.bin", "two.bin"].map((p) =>
        put(p, patternStream(size), { "content-length": String(size) }, c.key),
      ),
    );
    expect([a.status, b.status].sort()).toEqual([201, 413]);
    const refused = a.status === 413 ? a : b;
    expect(((await refused.json()) as { error: { code: string; message: string } }).error).toMatchObject({
      code: "quota_exceeded",
    });
    // Replacing a file counts its new size, not both.
    expect((await put("base.bin", "small", {}, c.key)).status).toBe(200);
    expect(
      (await put("two-again.bin", patternStream(size), { "content-length": String(size) }, c.key)).status,
    ).toBe(201);

    // 40 MiB used: an upload of unknown length may take the remaining 24 MiB, not more.
    expect((await put("chunked-small.bin", patternStream(10 * MiB), {}, c.key)).status).toBe(201);
    const over = await put("chunked-big.bin", patternStream(20 * MiB), {}, c.key);
    expect(over.status).toBe(413);
    expect(((await over.json()) as { error: { code: string } }).error.code).toBe("quota_exceeded");
    expect((await api("/v1/files/chunked-big.bin", { token: c.key })).status).toBe(404);
  });
});

describe("the files API's documentation", () => {
  it("lists the file routes, including the wildcard path, in the OpenAPI document", async () => {
    const doc = (await (await api("/openapi.json")).json()) as { paths: Record<string, object> };
    expect(Object.keys(doc.paths["/v1/files"])).toEqual(["get"]);
    expect(Object.keys(doc.paths["/v1/files/{path}"]).sort()).toEqual(["delete", "get", "put"]);
  });
});

describe("signed file links", () => {
  const signer = () => new LinkSigner(fileLinkRoots(env)!);

  async function blobLink(path: string, content: string): Promise<{ url: string; expires_at: number }> {
    const conv = await createConversation("files-links");
    await callTool(conv, "opfs_write", { path, content });
    return (await callTool(conv, "opfs_read", { path, mode: "blob" })).result;
  }

  it("opens a file without an API key, with CORS, until the configured expiry", async () => {
    const before = Date.now();
    const link = await blobLink("links/page.html", "<h1>hi</h1>");
    const ttl = filesConfig(env as unknown as Record<string, unknown>).linkTtlSeconds;
    expect(link.expires_at).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000 + ttl * 1000);
    expect(link.expires_at).toBeLessThanOrEqual(Date.now() + ttl * 1000);
    const res = await exports.default.fetch(link.url);
    expect(res.status).toBe(200);
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(await res.text()).toBe("<h1>hi</h1>");
    const ranged = await exports.default.fetch(new Request(link.url, { headers: { range: "bytes=1-2" } }));
    expect(ranged.status).toBe(206);
    expect(await ranged.text()).toBe("h1");
    const token = link.url.slice(link.url.lastIndexOf("/") + 1);
    expect(await signer().verify(token, link.expires_at + 1)).toBe("expired");
  });

  it("refuses an expired link with 410", async () => {
    await blobLink("links/old.txt", "old");
    const token = await signer().sign({
      ws: "default",
      path: "links/old.txt",
      exp: Math.floor(Date.now() / 1000) - 1,
    });
    const res = await exports.default.fetch(`https://cirrus.test/files/${token}`);
    expect(res.status).toBe(410);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe("link_expired");
  });

  it("cannot be forged: changed claims, a foreign secret or garbage are refused with 403", async () => {
    const link = await blobLink("links/secret.txt", "top secret");
    const [payload, sig] = link.url.slice(link.url.lastIndexOf("/") + 1).split(".");
    const claims = JSON.parse(atob(payload.replace(/-/g, "+").replace(/_/g, "/")));
    const reencode = (o: unknown) =>
      btoa(JSON.stringify(o)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
    const forgedToken = await new LinkSigner({ current: "not-the-secret", previous: [] }).sign({
      ...claims,
      path: "links/secret.txt",
    });
    const attempts = [
      `${reencode({ ...claims, path: "links/other.txt" })}.${sig}`,
      `${reencode({ ...claims, ws: "ws-someoneelse" })}.${sig}`,
      `${reencode({ ...claims, exp: claims.exp + 3600 })}.${sig}`,
      `${payload}.${sig.slice(0, -2)}${sig.endsWith("AA") ? "BB" : "AA"}`,
      forgedToken,
      payload,
      "not-a-token",
      `${payload}.${sig}.extra`,
    ];
    for (const token of attempts) {
      const res = await exports.default.fetch(`https://cirrus.test/files/${token}`);
      expect(res.status, token).toBe(403);
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe("link_invalid");
    }
    expect((await exports.default.fetch(link.url)).status).toBe(200);
  });

  it("stops working when the file is deleted", async () => {
    const link = await blobLink("links/gone.txt", "soon gone");
    await api("/v1/files/links/gone.txt", { method: "DELETE" });
    expect((await exports.default.fetch(link.url)).status).toBe(404);
  });
});
