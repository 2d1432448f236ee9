/**
 * The request guard's cost: a page with many subresources (images, fetches, an iframe with its own)
 * loaded in the local Chromium without interception and under Cirrus's own RequestGuard
 * (durable-objects/engine/browser/request-guard.ts, bundled as is), which pauses every request
 * and answers over the browser's CDP connection — one round trip per request, as in the fleet.
 * Here the round trip is a local WebSocket; on Cloudflare it is the Durable Object's connection
 * to Browser Rendering, so the figure per request scales with that latency.
 * Run: `node bench/request-guard.ts`.
 */
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";
import { build } from "esbuild";

/** Images, fetches and iframe images of the page. */
const IMAGES = 80;
const FETCHES = 20;
const FRAME_IMAGES = 20;
const SUBRESOURCES = IMAGES + FETCHES + 1 + FRAME_IMAGES;
/** Loads measured per mode (after one warm-up each). */
const LOADS = 8;

const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=",
  "base64",
);

function pageHtml(run: string): string {
  const imgs = Array.from({ length: IMAGES }, (_, i) => `<img src="/img?r=${run}&i=${i}">`).join("");
  return `<!doctype html><title>Guard bench</title><body>${imgs}
<iframe src="/frame?r=${run}"></iframe><script>
window.__ready = Promise.all([
  new Promise((resolve) => addEventListener("load", resolve)),
  ...Array.from({ length: ${FETCHES} }, (_, i) => fetch("/data?r=${run}&i=" + i).then((r) => r.text())),
]).then(() => performance.now());
</script></body>`;
}

const frameHtml = (run: string) =>
  `<!doctype html>${Array.from({ length: FRAME_IMAGES }, (_, i) => `<img src="/img?r=${run}&f=${i}">`).join("")}`;

function chromiumPath(): string {
  const debian = "/usr/lib/chromium/chromium";
  if (existsSync(debian)) return debian;
  return join(homedir(), ".cache/.wrangler/chrome/linux-126.0.6478.182/chrome-linux64/chrome");
}

/** A raw CDP connection to the browser target, shaped like puppeteer's Connection for the guard. */
async function connect(wsUrl: string) {
  const ws = new WebSocket(wsUrl);
  await new Promise((resolve, reject) => {
    ws.addEventListener("open", resolve);
    ws.addEventListener("error", reject);
  });
  let id = 0;
  const waits = new Map<number, (msg: { result?: unknown; error?: { message: string } }) => void>();
  const listeners = new Map<string, ((params: unknown) => void)[]>();
  ws.addEventListener("message", (m: MessageEvent) => {
    const msg = JSON.parse(String(m.data));
    if (msg.id) waits.get(msg.id)?.(msg);
    else if (!msg.sessionId) for (const fn of listeners.get(msg.method) ?? []) fn(msg.params);
  });
  const call = (method: string, params: object = {}, sessionId?: string) =>
    new Promise<unknown>((resolve, reject) => {
      const i = ++id;
      waits.set(i, (msg) => {
        waits.delete(i);
        if (msg.error) reject(new Error(msg.error.message));
        else resolve(msg.result);
      });
      ws.send(JSON.stringify({ id: i, method, params, sessionId }));
    });
  const sent = { commands: 0 };
  return {
    call,
    sent,
    connection: {
      on: (method: string, fn: (params: unknown) => void) =>
        listeners.set(method, [...(listeners.get(method) ?? []), fn]),
      send: (method: string, params: object) => {
        sent.commands++;
        return call(method, params);
      },
    },
    close: () => ws.close(),
  };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

type GuardModule = typeof import("../durable-objects/engine/browser/request-guard.ts");
type Guard = InstanceType<GuardModule["RequestGuard"]>;
type Cdp = Awaited<ReturnType<typeof connect>>;

/** Cirrus's request guard module, bundled with esbuild as the Worker build would. */
async function loadGuardModule(): Promise<GuardModule> {
  const bundled = await build({
    entryPoints: [new URL("../durable-objects/engine/browser/request-guard.ts", import.meta.url).pathname],
    bundle: true,
    format: "esm",
    platform: "neutral",
    write: false,
    external: ["@cloudflare/puppeteer"],
  });
  return (await import(
    `data:text/javascript;base64,${Buffer.from(bundled.outputFiles[0].text).toString("base64")}`
  )) as GuardModule;
}

/** The page server: the page, its frame, images and fetch targets, none cacheable. */
function createPageServer(): Server {
  return createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://x");
    const run = url.searchParams.get("r") ?? "";
    const headers = { "cache-control": "no-store" };
    if (url.pathname === "/img") res.writeHead(200, { ...headers, "content-type": "image/png" }).end(PNG);
    else if (url.pathname === "/data") res.writeHead(200, headers).end("ok");
    else if (url.pathname === "/frame")
      res.writeHead(200, { ...headers, "content-type": "text/html" }).end(frameHtml(run));
    else res.writeHead(200, { ...headers, "content-type": "text/html" }).end(pageHtml(run));
  });
}

function launchChromium(profile: string): ChildProcessWithoutNullStreams {
  return spawn(chromiumPath(), [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--remote-debugging-port=0",
    `--user-data-dir=${profile}`,
    "about:blank",
  ]);
}

/** The browser's DevTools WebSocket URL, as Chromium prints it on stderr. */
function devtoolsUrl(chrome: ChildProcessWithoutNullStreams): Promise<string> {
  return new Promise<string>((resolve) =>
    chrome.stderr.on("data", (d) => {
      const m = /ws:\/\/\S+/.exec(String(d));
      if (m) resolve(m[0]);
    }),
  );
}

const POLICY = { allowPrivateNetwork: true, allowedDomains: ["127.0.0.1"] };

/** One load in a fresh context: ms from navigation start to load plus every fetch done, in the page. */
async function load(cdp: Cdp, base: string, run: string, guard: Guard | null): Promise<number> {
  const { browserContextId } = (await cdp.call("Target.createBrowserContext")) as {
    browserContextId: string;
  };
  if (guard)
    await guard.add(browserContextId, {
      policy: () => POLICY,
      hasFrame: () => false,
      onRefusal: () => false,
    });
  const { targetId } = (await cdp.call("Target.createTarget", {
    url: "about:blank",
    browserContextId,
  })) as { targetId: string };
  const { sessionId } = (await cdp.call("Target.attachToTarget", { targetId, flatten: true })) as {
    sessionId: string;
  };
  await cdp.call("Page.navigate", { url: `${base}/page?r=${run}` }, sessionId);
  let ms: number | null = null;
  for (let i = 0; ms === null && i < 400; i++) {
    const r = (await cdp.call(
      "Runtime.evaluate",
      { expression: "window.__ready ?? null", awaitPromise: true, returnByValue: true },
      sessionId,
    )) as { result: { value: number | null } };
    ms = r.result.value;
  }
  guard?.remove(browserContextId);
  await cdp.call("Target.disposeBrowserContext", { browserContextId });
  if (ms === null) throw new Error("the page never finished loading");
  return ms;
}

interface Measured {
  plain: number[];
  guarded: number[];
  /** Guard commands per request. */
  perRequest: number;
  /** CDP round trips, ms. */
  rtt: number[];
}

/** LOADS loads without the guard, LOADS under it (one warm-up each), then 50 bare CDP round trips. */
async function measure(cdp: Cdp, base: string, guardModule: GuardModule): Promise<Measured> {
  const plain: number[] = [];
  await load(cdp, base, "warm-plain", null);
  for (let i = 0; i < LOADS; i++) plain.push(await load(cdp, base, `plain-${i}`, null));
  const guard = new guardModule.RequestGuard(cdp.connection as never);
  const guarded: number[] = [];
  await load(cdp, base, "warm-guard", guard);
  const before = cdp.sent.commands;
  for (let i = 0; i < LOADS; i++) guarded.push(await load(cdp, base, `guard-${i}`, guard));
  const perRequest = (cdp.sent.commands - before) / LOADS / (SUBRESOURCES + 1);
  const rtt: number[] = [];
  for (let i = 0; i < 50; i++) {
    const start = performance.now();
    await cdp.call("Browser.getVersion");
    rtt.push(performance.now() - start);
  }
  return { plain, guarded, perRequest, rtt };
}

function report({ plain, guarded, perRequest, rtt }: Measured): void {
  const [p, g] = [median(plain), median(guarded)];
  console.log(
    `request guard bench (local Chromium, ${SUBRESOURCES} subresources: ${IMAGES} images, ${FETCHES} fetches, an iframe with ${FRAME_IMAGES} images; median of ${LOADS} loads)`,
  );
  console.log(`  without the guard: ${p.toFixed(0)} ms   with the guard: ${g.toFixed(0)} ms`);
  console.log(
    `  cost: ${(g - p).toFixed(0)} ms a page, ${((g - p) / SUBRESOURCES).toFixed(2)} ms a subresource; one CDP round trip here: ${median(rtt).toFixed(2)} ms (on Cloudflare: the fleet object's round trip to Browser Rendering)`,
  );
  console.log(`  guard commands per request (each one a round trip): ${perRequest.toFixed(2)}`);
}

async function main(): Promise<void> {
  const guardModule = await loadGuardModule();
  const pages = createPageServer();
  await new Promise<void>((resolve) => pages.listen(0, "127.0.0.1", resolve));
  const base = `http://127.0.0.1:${(pages.address() as AddressInfo).port}`;

  const profile = mkdtempSync(join(tmpdir(), "guard-bench-"));
  const chrome = launchChromium(profile);
  try {
    const cdp = await connect(await devtoolsUrl(chrome));
    report(await measure(cdp, base, guardModule));
    cdp.close();
  } finally {
    chrome.kill();
    pages.closeAllConnections();
    pages.close();
    rmSync(profile, { recursive: true, force: true });
  }
}

await main();
