/**
 * HTTP plumbing for the scripted OpenAI-compatible model server (see ./scripted-model.ts):
 * reading JSON bodies, JSON replies, awaited writes and abortable sleeps.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { type Json, randomId } from "./scripted-model-turns.ts";

/** A request body that is not valid JSON; the server answers it with 400. */
export class BadJson extends Error {}

export function readJson(req: IncomingMessage): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    req.on("data", (b: Buffer) => parts.push(b));
    req.on("error", reject);
    req.on("end", () => {
      const text = Buffer.concat(parts).toString("utf8");
      try {
        resolve(text.trim() === "" ? undefined : (JSON.parse(text) as unknown));
      } catch {
        reject(new BadJson("We could not parse the JSON body of your request."));
      }
    });
  });
}

export function sendJson(
  res: ServerResponse,
  status: number,
  body: Json,
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    "content-type": "application/json",
    "content-length": String(Buffer.byteLength(text)),
    "x-request-id": randomId("req_", 16),
    ...headers,
  });
  res.end(text);
}

/** Writes `data` and resolves once it is flushed to the socket. */
export const write = (res: ServerResponse, data: string): Promise<void> =>
  new Promise((resolve) => {
    res.write(data, () => resolve());
  });

/** Resolves true after `ms`, or false as soon as `signal` aborts. */
export function sleep(ms: number, signal: AbortSignal): Promise<boolean> {
  if (signal.aborted) return Promise.resolve(false);
  if (ms <= 0) return Promise.resolve(true);
  return new Promise((resolve) => {
    const onAbort = (): void => {
      clearTimeout(timer);
      resolve(false);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve(true);
    }, ms);
    signal.addEventListener("abort", onAbort, { once: true });
  });
}
