/**
 * A signed-request receiver for tests (HTTP tools, webhooks): checks the Cirrus signature
 * `t=<unix>,v1=<hex hmac-sha256(secret, "<t>.<body>")>` the way a real receiver would, and/or
 * the Standard Webhooks signature with the `standardwebhooks` library.
 */
import { createHmac, timingSafeEqual } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { Webhook } from "standardwebhooks";

interface ReceiverConfig {
  secret: string;
  status: number;
  body: unknown;
  delayMs: number;
  /** Answer this many requests with 503 before answering normally. */
  failFirst: number;
  /** Which signatures must hold: Cirrus's (default), Standard Webhooks', or both. */
  scheme: "cirrus" | "standard" | "both";
}

interface Received {
  valid: boolean;
  reason?: string;
  headers: Record<string, string | string[] | undefined>;
  body: unknown;
}

const configs = new Map<string, ReceiverConfig>();
const logs = new Map<string, Received[]>();

/** Checks a signature header against a body; the reason when it does not hold. */
export function verifySignature(
  header: string | undefined,
  body: string,
  secret: string,
  toleranceS = 300,
): string | null {
  const m = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(header ?? "");
  if (!m) return "missing or malformed signature header";
  if (Math.abs(Date.now() / 1000 - Number(m[1])) > toleranceS) return "timestamp outside tolerance (replay?)";
  const expected = createHmac("sha256", secret).update(`${m[1]}.${body}`).digest();
  const given = Buffer.from(m[2], "hex");
  return given.length === expected.length && timingSafeEqual(given, expected) ? null : "signature mismatch";
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

function send(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(body));
}

/** Page-server handler for `/receiver/<name>`, `/receiver/<name>/config` and `/receiver/<name>/log`. */
export async function handleReceiver(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
  const [, , name, action] = url.pathname.split("/");
  const body = await readBody(req);
  if (action === "config") {
    const c = JSON.parse(body) as Partial<ReceiverConfig> & { secret: string };
    configs.set(name, { status: 200, body: { ok: true }, delayMs: 0, failFirst: 0, scheme: "cirrus", ...c });
    logs.set(name, []);
    return send(res, 200, { ok: true });
  }
  if (action === "log") return send(res, 200, { requests: logs.get(name) ?? [] });
  const config = configs.get(name);
  if (!config) return send(res, 404, { error: "unknown receiver" });
  const cirrus = () =>
    verifySignature(req.headers["x-cirrus-signature"] as string | undefined, body, config.secret);
  const reason =
    config.scheme === "standard"
      ? verifyStandard(req, body, config.secret)
      : config.scheme === "both"
        ? (cirrus() ?? verifyStandard(req, body, config.secret))
        : cirrus();
  let parsed: unknown = body;
  try {
    parsed = JSON.parse(body);
  } catch {
    // keep text
  }
  const log = logs.get(name) ?? [];
  log.push({ valid: reason === null, reason: reason ?? undefined, headers: req.headers, body: parsed });
  logs.set(name, log);
  if (config.delayMs) await new Promise((r) => setTimeout(r, config.delayMs));
  if (reason) return send(res, 401, { error: reason });
  if (config.failFirst > 0) {
    config.failFirst--;
    return send(res, 503, { error: "try again" });
  }
  send(res, config.status, typeof config.body === "function" ? null : config.body);
}

/** Checks the Standard Webhooks headers with the reference library; the reason when they do not hold. */
function verifyStandard(req: IncomingMessage, body: string, secret: string): string | null {
  try {
    new Webhook(secret).verify(body, {
      "webhook-id": String(req.headers["webhook-id"] ?? ""),
      "webhook-timestamp": String(req.headers["webhook-timestamp"] ?? ""),
      "webhook-signature": String(req.headers["webhook-signature"] ?? ""),
    });
    return null;
  } catch (err) {
    return `standard webhooks: ${(err as Error).message}`;
  }
}
