/**
 * `/echo/headers`: answers with the request's headers, as a debugging endpoint (or a compromised
 * one) would: JSON by default, `?status=500` as an error, `?pad=<n>` with n more characters (a
 * result large enough to be saved to the workspace). For the secret-leak sweep's HTTP tools.
 */
import type { IncomingMessage, ServerResponse } from "node:http";

function echoHeaders(req: IncomingMessage, res: ServerResponse, url: URL): void {
  req.resume();
  const status = Number(url.searchParams.get("status") ?? 200);
  const pad = "x".repeat(Math.min(Number(url.searchParams.get("pad") ?? 0), 1_000_000));
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify({ headers: req.headers, pad }));
}

export const echoPages: [string, (req: IncomingMessage, res: ServerResponse, url: URL) => void][] = [
  ["/echo/headers", echoHeaders],
];
