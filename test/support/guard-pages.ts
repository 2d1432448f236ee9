/**
 * Pages for the tests of secrets, the browser's request guard and files through the browser,
 * served by the local page server: a request recorder (to prove a request was never made), a
 * page that shows what is typed into it encoded, an upload form, downloads and a TOTP login.
 */
import { createHash, createHmac } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { PageHandler } from "./page-server";

/** The TOTP seed the login page checks codes against (base32 of RFC 6238's SHA-1 test key). */
export const TOTP_SEED = "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ";
/** The bytes the download routes send: every byte value, twice, then a marker. */
export const DOWNLOAD_BYTES = Buffer.concat([
  Buffer.from(Array.from({ length: 512 }, (_, i) => i % 256)),
  Buffer.from("end of file\n"),
]);

const html = (res: ServerResponse, body: string) => {
  res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
  res.end(`<!doctype html>${body}`);
};

const readBytes = async (req: IncomingMessage): Promise<Buffer> => {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
};

const json = (res: ServerResponse, body: unknown) => {
  res.writeHead(200, { "content-type": "application/json" });
  res.end(JSON.stringify(body));
};

/** Requests seen per id (path query `id`), with their method. */
const hits = new Map<string, string[]>();
/** Long polls held per id until the test releases them (a page acting when the test says so). */
const held = new Map<
  string,
  { waiting: number; dropped: number; released: boolean; release: (() => void)[] }
>();
const holdOf = (id: string) => {
  let h = held.get(id);
  if (!h) {
    h = { waiting: 0, dropped: 0, released: false, release: [] };
    held.set(id, h);
  }
  return h;
};

/** Uploads received per id: name, type, size and sha256 of each file part. */
const uploads = new Map<string, { name: string; type: string; size: number; sha256: string }[]>();

/** The parts of a multipart/form-data body that carry a file. */
function fileParts(body: Buffer, contentType: string) {
  const boundary = /boundary=(?:"([^"]+)"|([^;]+))/.exec(contentType);
  if (!boundary) return [];
  const delimiter = Buffer.from(`--${boundary[1] ?? boundary[2]}`);
  const out: { name: string; type: string; bytes: Buffer }[] = [];
  let start = body.indexOf(delimiter);
  while (start >= 0) {
    const next = body.indexOf(delimiter, start + delimiter.length);
    if (next < 0) break;
    const part = body.subarray(start + delimiter.length + 2, next - 2);
    const split = part.indexOf("\r\n\r\n");
    const head = part.subarray(0, split).toString("utf8");
    const filename = /filename="([^"]*)"/.exec(head)?.[1];
    if (filename !== undefined) {
      const type = /content-type:\s*([^\r\n]+)/i.exec(head)?.[1] ?? "";
      out.push({ name: filename, type, bytes: part.subarray(split + 4) });
    }
    start = next;
  }
  return out;
}

/** RFC 6238 with SHA-1, as a site checking a second factor would compute it. */
export function totpAt(seed: string, atMs: number, digits = 6, period = 30): string {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
  let bits = "";
  for (const ch of seed) bits += alphabet.indexOf(ch).toString(2).padStart(5, "0");
  const key = Buffer.from((bits.match(/.{8}/g) ?? []).map((b) => Number.parseInt(b, 2)));
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(Math.floor(atMs / 1000 / period)));
  const mac = createHmac("sha1", key).update(counter).digest();
  const o = mac[mac.length - 1] & 0x0f;
  return String((mac.readUInt32BE(o) & 0x7fffffff) % 10 ** digits).padStart(digits, "0");
}

/** Route table of these pages. */
export const guardPages: [string, PageHandler][] = [
  [
    "/guard/hit",
    (req, res, url) => {
      const id = url.searchParams.get("id") ?? "";
      hits.set(id, [...(hits.get(id) ?? []), req.method ?? "GET"]);
      html(res, `<title>Hit ${id}</title><p>hit</p>`);
    },
  ],
  [
    "/guard/hits",
    (_req, res, url) => json(res, { methods: hits.get(url.searchParams.get("id") ?? "") ?? [] }),
  ],
  [
    // Answers once the test releases `id` (GET /guard/release); /guard/held tells how many wait, and how many the browser dropped.
    "/guard/wait",
    async (_req, res, url) => {
      const h = holdOf(url.searchParams.get("id") ?? "");
      if (!h.released) {
        h.waiting++;
        // The browser gave up the request before the release (its page or worker ended).
        res.on("close", () => {
          if (!res.writableFinished) h.dropped++;
        });
        await new Promise<void>((resolve) => h.release.push(resolve));
      }
      json(res, { released: true });
    },
  ],
  [
    "/guard/release",
    (_req, res, url) => {
      const h = holdOf(url.searchParams.get("id") ?? "");
      h.released = true;
      for (const resolve of h.release.splice(0)) resolve();
      json(res, { released: true });
    },
  ],
  [
    "/guard/held",
    (_req, res, url) => {
      const h = holdOf(url.searchParams.get("id") ?? "");
      json(res, { waiting: h.waiting, dropped: h.dropped });
    },
  ],
  [
    // Once released, requests `to` (a fetch), then /guard/hit?id=<id>-done: a page acting on its own, later.
    "/guard/later",
    (_req, res, url) => {
      const id = url.searchParams.get("id") ?? "";
      const to = url.searchParams.get("to") ?? "";
      html(
        res,
        `<title>Later</title><p>waiting</p><script>
        const id = ${JSON.stringify(id)};
        fetch("/guard/wait?id=" + encodeURIComponent(id))
          .then(() => fetch(${JSON.stringify(to)}, { mode: "no-cors" }).catch(() => null))
          .then(() => fetch("/guard/hit?id=" + encodeURIComponent(id + "-done")));
        </script>`,
      );
    },
  ],
  [
    // Serves `code` as a script (a service worker's, which must come from the page's origin).
    "/guard/script",
    (_req, res, url) => {
      res.writeHead(200, { "content-type": "text/javascript" });
      res.end(url.searchParams.get("code") ?? "");
    },
  ],
  [
    // Shows what is typed into its field as base64, hex and reversed (as a page's own script could).
    "/guard/echo-forms",
    (_req, res) =>
      html(
        res,
        `<title>Echo forms</title><body><input id="pass" type="password"><pre id="out"></pre><script>
        document.getElementById("pass").addEventListener("input", (e) => {
          const v = e.target.value;
          const hex = [...new TextEncoder().encode(v)].map((b) => b.toString(16).padStart(2, "0")).join("");
          document.getElementById("out").textContent =
            "b64:" + btoa(v) + " hex:" + hex + " rev:" + [...v].reverse().join("") + " wrapped:" + btoa("user:" + v);
        });
        </script></body>`,
      ),
  ],
  [
    "/files/upload",
    async (req, res, url) => {
      const id = url.searchParams.get("id") ?? "";
      if (req.method === "POST") {
        const parts = fileParts(await readBytes(req), String(req.headers["content-type"] ?? ""));
        const got = parts.map((p) => ({
          name: p.name,
          type: p.type,
          size: p.bytes.length,
          sha256: createHash("sha256").update(p.bytes).digest("hex"),
        }));
        uploads.set(id, got);
        html(res, `<title>Uploaded</title><pre id="got">${JSON.stringify(got)}</pre>`);
        return;
      }
      html(
        res,
        `<title>Upload</title><body><form id="f" method="post" enctype="multipart/form-data" action="/files/upload?id=${encodeURIComponent(id)}">
        <input id="file" type="file" name="file"><input id="text" name="note"><button id="send">Send</button></form>
        <p id="events"></p><script>
        const seen = [];
        for (const type of ["input", "change"]) document.getElementById("file").addEventListener(type, (e) => {
          seen.push(type + ":" + e.target.files[0]?.name + ":" + e.target.files[0]?.size);
          document.getElementById("events").textContent = seen.join(" ");
        });
        </script></body>`,
      );
    },
  ],
  [
    // Three file inputs, two without id or name (get_tab_content stamps those); each choice is listed.
    "/files/attach",
    (_req, res) =>
      html(
        res,
        `<title>Attach</title><body><main><h1>Your application</h1>
        <p><label>Photo <input type="file"></label></p><p><label>Scan <input type="file"></label></p>
        <p><input type="file" name="cv" aria-label="CV"></p><p id="events"></p><script>
        for (const input of document.querySelectorAll("input[type=file]")) input.addEventListener("change", () => {
          const name = input.labels[0] ? input.labels[0].textContent.trim() : input.name;
          document.getElementById("events").textContent += name + "=" + input.files[0].name + " ";
        });
        </script></main></body>`,
      ),
  ],
  [
    "/files/uploads",
    (_req, res, url) => json(res, { files: uploads.get(url.searchParams.get("id") ?? "") ?? [] }),
  ],
  [
    // Sent as an attachment: the browser downloads it instead of showing it.
    "/files/attachment",
    (req, res, url) => {
      const name = url.searchParams.get("name") ?? "report.bin";
      hits.set(`attachment-${name}`, [...(hits.get(`attachment-${name}`) ?? []), req.method ?? "GET"]);
      res.writeHead(200, {
        "content-type": "application/octet-stream",
        "content-disposition": `attachment; filename="${url.searchParams.get("name") ?? "report.bin"}"`,
        "content-length": String(DOWNLOAD_BYTES.length),
      });
      res.end(DOWNLOAD_BYTES);
    },
  ],
  [
    // `bytes` bytes as an attachment; `chunked=1` sends no Content-Length (the size shows only while reading).
    "/files/big",
    (req, res, url) => {
      const size = Number(url.searchParams.get("bytes") ?? "0");
      const id = `big-${url.searchParams.get("id") ?? ""}`;
      hits.set(id, [...(hits.get(id) ?? []), req.method ?? "GET"]);
      const chunked = url.searchParams.get("chunked") === "1";
      res.writeHead(200, {
        "content-type": "application/octet-stream",
        "content-disposition": 'attachment; filename="big.bin"',
        ...(chunked ? {} : { "content-length": String(size) }),
      });
      res.end(Buffer.alloc(size, 7));
    },
  ],
  [
    "/files/plain.csv",
    (_req, res) => {
      res.writeHead(200, { "content-type": "text/csv" });
      res.end("name,price\nteapot,12\n");
    },
  ],
  [
    "/files/links",
    (_req, res) =>
      html(
        res,
        `<title>Downloads</title><body><a id="attachment" href="/files/attachment?name=report.bin">Report</a>
        <a id="save-csv" href="/files/plain.csv" download="prices.csv">Prices</a></body>`,
      ),
  ],
  [
    "/totp/login",
    async (req, res) => {
      if (req.method === "POST") {
        const code = new URLSearchParams((await readBytes(req)).toString("utf8")).get("code") ?? "";
        const now = Date.now();
        const valid = [now - 30_000, now, now + 30_000].some((t) => totpAt(TOTP_SEED, t) === code);
        html(
          res,
          valid ? "<title>Signed in</title><h1>Welcome</h1>" : "<title>Wrong code</title><h1>Wrong code</h1>",
        );
        return;
      }
      html(
        res,
        `<title>Second factor</title><body><form id="f" method="post" action="/totp/login">
        <input id="code" name="code" autocomplete="one-time-code"><button id="go">Verify</button></form></body>`,
      );
    },
  ],
];
