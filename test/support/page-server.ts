/** A local HTTP server of test pages on 127.0.0.1, for tools that fetch or browse the web. */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { browserPages } from "./browser-pages.ts";
import { echoPages } from "./echo-pages.ts";
import { guardPages } from "./guard-pages.ts";
import { keepIdleConnections } from "./keep-alive.ts";
import { handleReceiver } from "./receiver.ts";
import { recordingPages } from "./recording-pages.ts";
import { handleUpgrade, websocketPages } from "./websocket-endpoint.ts";

/** A route handler of the page server. */
export type PageHandler = (req: IncomingMessage, res: ServerResponse, url: URL) => void | Promise<void>;

const routes = new Map<string, PageHandler>([
  [
    "/hello",
    (_req, res) => {
      res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
      res.end("<!doctype html><title>Hello</title><main><h1>Hello from the page server</h1></main>");
    },
  ],
]);

for (const [path, handler] of [
  ...browserPages,
  ...echoPages,
  ...guardPages,
  ...recordingPages,
  ...websocketPages,
])
  routes.set(path, handler);

/** Adds or replaces a route (used by test files that need special pages). */
export function addPage(path: string, handler: PageHandler): void {
  routes.set(path, handler);
}

/** Starts the page server on a free port. */
export async function startPageServer(): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    const handler = url.pathname.startsWith("/receiver/") ? handleReceiver : routes.get(url.pathname);
    if (!handler) {
      res.writeHead(404, { "content-type": "text/plain" });
      res.end("not found");
      return;
    }
    try {
      await handler(req, res, url);
    } catch (err) {
      if (!res.headersSent) res.writeHead(500);
      res.end(String(err));
    }
  });
  server.on("upgrade", handleUpgrade);
  keepIdleConnections(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
