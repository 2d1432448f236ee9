/** Shared pieces of the browser test pages (see browser-pages.ts and browser-navigation-pages.ts). */
import type { IncomingMessage, ServerResponse } from "node:http";

/** Answers 200 with `body` as an HTML document. */
export const html = (res: ServerResponse, body: string, headers: Record<string, string> = {}) => {
  res.writeHead(200, { "content-type": "text/html; charset=utf-8", ...headers });
  res.end(`<!doctype html>${body}`);
};

export const readBody = (req: IncomingMessage) =>
  new Promise<string>((resolve) => {
    let data = "";
    req.on("data", (c) => {
      data += c;
    });
    req.on("end", () => resolve(data));
  });

export const escapeHtml = (s: string) => s.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);
