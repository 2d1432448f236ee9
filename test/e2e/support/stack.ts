/**
 * The end-to-end stack: the scripted model, `wrangler dev` of Cirrus pointed at it, host pages
 * on other origins, and Debian's Chromium through playwright-core. `stop()` ends all of them.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { type Browser, chromium } from "playwright-core";
import { type ScriptedModel, startScriptedModel, type Turn } from "../../support/scripted-model";
import { startWranglerDev, type WranglerDev } from "./wrangler-dev";

export const ADMIN = "e2e-admin-token";
/** Every widget conversation uses the default model, which is this script key. */
export const WIDGET_MODEL = "widget";
const CHROMIUM = "/usr/lib/chromium/chromium";
const CHROMIUM_FLAGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
];

/** A page server on its own origin. */
export interface HostServer {
  origin: string;
  setPage(html: string): void;
  close(): Promise<void>;
}

/** Everything a test talks to. */
export interface Stack {
  cirrus: string;
  model: ScriptedModel;
  browser: Browser;
  stop(): Promise<void>;
}

/** Serves one HTML page at `/` from a fresh 127.0.0.1 port (its own origin). */
export async function startHost(): Promise<HostServer> {
  let html = "<!doctype html><title>empty</title>";
  const server: Server = createServer((_req, res) => {
    res.writeHead(200, { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" });
    res.end(html);
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    setPage: (next) => {
      html = next;
    },
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

/** Starts model, Cirrus and the browser; whatever started is stopped if a later step fails. */
export async function startStack(): Promise<Stack> {
  const stops: (() => Promise<void>)[] = [];
  const stop = async () => {
    for (const s of stops.reverse()) await s().catch(() => {});
  };
  try {
    const model = await startScriptedModel();
    stops.push(() => model.close());
    const dev: WranglerDev = await startWranglerDev({
      ADMIN_TOKEN: ADMIN,
      OPENAI_API_KEY: "sk-e2e",
      OPENAI_BASE_URL: `${model.url}/v1`,
      OPENAI_MODEL: WIDGET_MODEL,
      ALLOW_PRIVATE_NETWORK: "true",
      MODEL_RETRY_MAX_DELAY_MS: "200",
      SSE_HEARTBEAT_MS: "1000",
    });
    stops.push(() => dev.stop());
    const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS, headless: true });
    stops.push(() => browser.close());
    return { cirrus: dev.url, model, browser, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}

/** Replaces the widget model's script. */
export async function scriptWidget(model: ScriptedModel, turns: Turn[]): Promise<void> {
  const res = await fetch(`${model.url}/__scripts/${WIDGET_MODEL}`, {
    method: "PUT",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ turns }),
  });
  if (!res.ok) throw new Error(`script: ${res.status} ${await res.text()}`);
}

/** Releases model requests held by a `hang` turn. */
export async function releaseWidget(model: ScriptedModel): Promise<void> {
  await fetch(`${model.url}/__scripts/${WIDGET_MODEL}/release`, { method: "POST" });
}

/** The requests the widget model received. */
export async function widgetRequests(
  model: ScriptedModel,
): Promise<{ messages: { role: string; content: unknown }[] }[]> {
  const res = await fetch(`${model.url}/__scripts/${WIDGET_MODEL}/requests`);
  return ((await res.json()) as { requests: never[] }).requests;
}

/** Calls Cirrus's API. */
export async function cirrusApi<T>(
  stack: Stack,
  path: string,
  token: string,
  init: { method?: string; json?: unknown } = {},
): Promise<T> {
  const res = await fetch(`${stack.cirrus}${path}`, {
    method: init.method ?? "GET",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: init.json === undefined ? undefined : JSON.stringify(init.json),
  });
  if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

/** Escapes text for an HTML attribute of the host page (the host's job, not the widget's). */
export const attr = (s: string): string =>
  s.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

/** A host page that embeds the widget with these data attributes. */
export function hostPage(cirrus: string, data: Record<string, string>, extraHead = ""): string {
  const attrs = Object.entries(data)
    .map(([k, v]) => ` data-${k}="${attr(v)}"`)
    .join("");
  return `<!doctype html><html><head><title>Host shop</title>${extraHead}
<style>body{font-family:Georgia,serif;background:#fafaf9;margin:40px} button{color:red!important} *{letter-spacing:3px}</style>
</head><body><h1>A shop somewhere else</h1><p>Products, prices and a chat in the corner.</p>
<script src="${cirrus}/widget.js"${attrs} async></script></body></html>`;
}

/** A new workspace with an owner secret key and, for a widget host origin, a publishable key. */
export async function newWorkspace(
  stack: Stack,
  name: string,
  widgetOrigin: string,
): Promise<{ id: string; sk: string; pk: string }> {
  const { id } = await cirrusApi<{ id: string }>(stack, "/v1/workspaces", ADMIN, {
    method: "POST",
    json: { name },
  });
  const key = (json: Record<string, unknown>) =>
    cirrusApi<{ key: string }>(stack, `/v1/workspaces/${id}/keys`, ADMIN, { method: "POST", json });
  const sk = (await key({ name: "owner" })).key;
  const pk = (await key({ name: "site", type: "publishable", allowed_origins: [widgetOrigin] })).key;
  return { id, sk, pk };
}
