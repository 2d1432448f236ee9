/**
 * HTTP tools: the agent POSTs the model's arguments to a URL the API user registered and the
 * response is the result. Each request is signed: `X-Cirrus-Signature: t=<unix>,v1=<hex>` where
 * v1 = HMAC-SHA256(secret, "<t>.<body>"), so a receiver can check origin and reject replays.
 */
import { Validator } from "@cfworker/json-schema";
import { z } from "zod";
import type { StoredHttpTool } from "../../../schemas/http-tools";
import { headerRedactor } from "../secrets/header-redaction";
import { defineTool, type Tool, ToolError } from "../tools/tool";
import { refuseSecretPlaceholders } from "./secret-placeholder";

/** Bytes of a response read at most. */
export const MAX_RESPONSE_BYTES = 1_000_000;

/** Hex HMAC-SHA256 of `message` with `secret`. */
export async function hmacHex(secret: string, message: string): Promise<string> {
  const key = await crypto.subtle.importKey(
    "raw",
    new TextEncoder().encode(secret),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign"],
  );
  const sig = await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(message));
  return [...new Uint8Array(sig)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** The signature header value for a body sent at `timestamp` (unix seconds). */
export async function signatureHeader(secret: string, timestamp: number, body: string): Promise<string> {
  return `t=${timestamp},v1=${await hmacHex(secret, `${timestamp}.${body}`)}`;
}

/** What an HTTP tool needs besides its spec. */
export interface HttpToolDeps {
  /** Throws when the URL may not be called (private network, disallowed domain). */
  checkUrl(url: string): void | Promise<void>;
  conversationId: string;
}

/** Arguments validated against the tool's JSON Schema, with readable errors. */
function jsonSchemaArgs(schema: Record<string, unknown>): z.ZodType {
  const validator = new Validator(schema as never, "2020-12", false);
  return z.unknown().superRefine((value, ctx) => {
    const result = validator.validate(value as never);
    if (result.valid) return;
    for (const e of result.errors
      .filter((x) => !["properties", "items", "$ref"].includes(x.keyword))
      .slice(0, 8)) {
      ctx.addIssue({ code: "custom", message: `${e.instanceLocation || "#"}: ${e.error}` });
    }
  });
}

/** Builds the tool that calls a registered HTTP endpoint. */
export function createHttpTool(spec: StoredHttpTool, deps: HttpToolDeps): Tool {
  return defineTool({
    name: spec.name,
    description: spec.description,
    parameters: jsonSchemaArgs(spec.parameters),
    jsonSchema: spec.parameters,
    searchable: true,
    timeoutMs: spec.timeout_ms + 1000,
    ...(spec.approval ? { approval: spec.approval } : {}),
    execute: async (args, ctx) => {
      refuseSecretPlaceholders(spec.name, args);
      await deps.checkUrl(spec.url);
      const body = JSON.stringify(args ?? {});
      const timestamp = Math.floor(Date.now() / 1000);
      const signal = AbortSignal.any([ctx.signal, AbortSignal.timeout(spec.timeout_ms)]);
      let res: Response;
      try {
        res = await fetch(spec.url, {
          method: "POST",
          headers: {
            ...spec.headers,
            "content-type": "application/json",
            "user-agent": "Cirrus-HttpTool/1",
            "x-cirrus-tool": spec.name,
            "x-cirrus-conversation": deps.conversationId,
            "x-cirrus-signature": await signatureHeader(spec.secret, timestamp, body),
          },
          body,
          redirect: "manual",
          signal,
        });
      } catch (err) {
        if (signal.aborted && !ctx.signal.aborted) {
          throw new ToolError("timeout", `${spec.name} did not answer within ${spec.timeout_ms} ms.`);
        }
        throw new ToolError(
          "http_tool_unreachable",
          `${spec.name} could not be reached: ${(err as Error).message}`,
        );
      }
      // An endpoint that echoes its request must not show the model the tool's headers.
      const text = headerRedactor(spec.headers).text(await readCapped(res));
      if (!res.ok) {
        throw new ToolError(
          "http_tool_error",
          `${spec.name} answered HTTP ${res.status}: ${text.slice(0, 500)}`,
        );
      }
      if ((res.headers.get("content-type") ?? "").includes("json")) {
        try {
          return JSON.parse(text) as unknown;
        } catch {
          return text;
        }
      }
      return text;
    },
  });
}

async function readCapped(res: Response): Promise<string> {
  if (!res.body) return "";
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_RESPONSE_BYTES) {
      await reader.cancel();
      break;
    }
    chunks.push(value);
  }
  return new TextDecoder().decode(concat(chunks));
}

function concat(chunks: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.byteLength, 0));
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.byteLength;
  }
  return out;
}
