/**
 * Workspace-file figures measured inside workerd (wrangler's local runtime with local R2):
 * streamed upload and download throughput, ranged reads, and opfs_read / opfs_list latency.
 * Run: `node bench/files.ts` (Node 22 from node_modules/.bin, e.g. via `npx node bench/files.ts`).
 */
import { unstable_startWorker } from "wrangler";

const ADMIN = "bench-admin-token";
const MiB = 1024 * 1024;
const UPLOAD_BYTES = 64 * MiB;
const ROUNDS = 20;

type Fetch = (path: string, init?: RequestInit) => Promise<Response>;

/** A stream of `total` patterned bytes in 64 KiB chunks. */
function pattern(total: number): ReadableStream<Uint8Array> {
  let sent = 0;
  const chunk = new Uint8Array(64 * 1024).map((_, i) => i % 251);
  return new ReadableStream({
    pull(c) {
      if (sent >= total) return c.close();
      const n = Math.min(chunk.length, total - sent);
      sent += n;
      c.enqueue(n === chunk.length ? chunk : chunk.subarray(0, n));
    },
  });
}

async function timed<T>(fn: () => Promise<T>): Promise<[T, number]> {
  const t0 = performance.now();
  const v = await fn();
  return [v, performance.now() - t0];
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

async function bench(api: Fetch): Promise<void> {
  const mbps = (ms: number) => (UPLOAD_BYTES / MiB / (ms / 1000)).toFixed(0);
  const [up, upMs] = await timed(() =>
    api("/v1/files/bench/big.bin", {
      method: "PUT",
      body: pattern(UPLOAD_BYTES),
      headers: { "content-length": String(UPLOAD_BYTES) },
      duplex: "half",
    } as RequestInit),
  );
  if (up.status !== 201 && up.status !== 200) throw new Error(`upload: ${up.status} ${await up.text()}`);
  console.log(
    `upload ${UPLOAD_BYTES / MiB} MiB (Content-Length, one put): ${upMs.toFixed(0)} ms, ${mbps(upMs)} MiB/s`,
  );
  const [, chunkedMs] = await timed(async () => {
    const r = await api("/v1/files/bench/chunked.bin", {
      method: "PUT",
      body: pattern(UPLOAD_BYTES),
      duplex: "half",
    } as RequestInit);
    if (r.status >= 300) throw new Error(`chunked upload: ${r.status} ${await r.text()}`);
  });
  console.log(
    `upload ${UPLOAD_BYTES / MiB} MiB (chunked, multipart 8 MiB parts): ${chunkedMs.toFixed(0)} ms, ${mbps(chunkedMs)} MiB/s`,
  );
  const [, downMs] = await timed(async () => {
    const r = await api("/v1/files/bench/big.bin");
    let n = 0;
    for await (const c of r.body as unknown as AsyncIterable<Uint8Array>) n += c.length;
    if (n !== UPLOAD_BYTES) throw new Error(`downloaded ${n}`);
  });
  console.log(`download ${UPLOAD_BYTES / MiB} MiB: ${downMs.toFixed(0)} ms, ${mbps(downMs)} MiB/s`);
  const rangeMs: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    const [, ms] = await timed(async () =>
      (await api("/v1/files/bench/big.bin", { headers: { range: "bytes=1000000-1065535" } })).arrayBuffer(),
    );
    rangeMs.push(ms);
  }
  console.log(`ranged read of 64 KiB: median ${median(rangeMs).toFixed(1)} ms over ${ROUNDS}`);
  await toolFigures(api);
}

async function toolFigures(api: Fetch): Promise<void> {
  const conv = (await (
    await api("/v1/conversations", {
      method: "POST",
      body: "{}",
      headers: { "content-type": "application/json" },
    })
  ).json()) as { id: string };
  const call = (name: string, args: unknown) =>
    api(`/v1/conversations/${conv.id}/tools/${name}`, {
      method: "POST",
      body: JSON.stringify({ arguments: args }),
      headers: { "content-type": "application/json" },
    });
  const text = Array.from({ length: 100_000 }, (_, i) => `line ${i + 1} of a long log file\n`).join("");
  await api("/v1/files/bench/log.txt", { method: "PUT", body: text });
  for (let i = 0; i < 200; i++) await call("opfs_write", { path: `bench/many/f${i}.txt`, content: "x" });
  for (const [label, name, args] of [
    ["opfs_read 200 lines of a 100,000-line file (first page)", "opfs_read", { path: "bench/log.txt" }],
    [
      "opfs_read 200 lines of a 100,000-line file (last page)",
      "opfs_read",
      { path: "bench/log.txt", offset: 99_801 },
    ],
    ["opfs_write of a 1 KiB text", "opfs_write", { path: "bench/small.txt", content: "y".repeat(1024) }],
    ["opfs_list of a folder with 200 files", "opfs_list", { path: "bench/many" }],
  ] as const) {
    const ms: number[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      const [r, t] = await timed(() => call(name, args));
      if (r.status !== 200) throw new Error(`${name}: ${r.status} ${await r.text()}`);
      await r.arrayBuffer();
      ms.push(t);
    }
    console.log(`${label}: median ${median(ms).toFixed(1)} ms over ${ROUNDS}`);
  }
}

const worker = await unstable_startWorker({
  config: "wrangler.toml",
  bindings: {
    ADMIN_TOKEN: { type: "plain_text", value: ADMIN },
    FILES_MAX_FILE_BYTES: { type: "plain_text", value: String(256 * MiB) },
  },
  dev: { server: { port: 0 }, inspector: false, persist: false, remote: false },
} as Parameters<typeof unstable_startWorker>[0]);
try {
  await worker.ready;
  const base = await worker.url;
  const api: Fetch = (path, init = {}) => {
    const headers = new Headers(init.headers);
    headers.set("authorization", `Bearer ${ADMIN}`);
    return fetch(new URL(path, base), { ...init, headers });
  };
  console.log("workspace files, measured in workerd (wrangler local runtime, local R2):");
  await bench(api);
} finally {
  await worker.dispose();
}
