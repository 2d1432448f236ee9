/**
 * Wire-format helpers for the scripted OpenAI-compatible model server
 * (see ./scripted-model.ts): the exact `chat.completion` / `chat.completion.chunk` shapes OpenAI
 * sends and its error bodies. Turn types and validation live in ./scripted-model-turns.ts, token
 * counting and cache reporting in ./scripted-model-usage.ts.
 */
import {
  type Json,
  type JsonObject,
  type Output,
  type ResolvedToolCall,
  randomId,
} from "./scripted-model-turns.ts";
import type { Usage } from "./scripted-model-usage.ts";

/** Split into `pieces` near-equal parts, or ~`size`-code-point parts when pieces is not given. */
export function split(s: string, pieces?: number, size = 8): string[] {
  const cps = Array.from(s);
  if (cps.length === 0) return [];
  const n =
    pieces === undefined
      ? Math.ceil(cps.length / size)
      : Math.min(Math.max(1, Math.floor(pieces)), cps.length);
  const out: string[] = [];
  for (let i = 0; i < n; i++)
    out.push(cps.slice(Math.floor((i * cps.length) / n), Math.floor(((i + 1) * cps.length) / n)).join(""));
  return out;
}

export interface Envelope {
  id: string;
  created: number;
  model: string;
  includeUsage: boolean;
}
export const envelope = (model: string, includeUsage: boolean): Envelope => ({
  id: randomId("chatcmpl-"),
  created: Math.floor(Date.now() / 1000),
  model,
  includeUsage,
});
const FINGERPRINT = "fp_scripted";
const finishOf = (out: Output): string => out.finish ?? (out.toolCalls.length > 0 ? "tool_calls" : "stop");

export function completionBody(env: Envelope, out: Output, usage: Usage): JsonObject {
  const message: JsonObject = { role: "assistant", content: out.content, refusal: null, annotations: [] };
  if (out.toolCalls.length > 0)
    message.tool_calls = out.toolCalls.map((c) => ({
      id: c.id,
      type: "function",
      function: { name: c.name, arguments: c.arguments },
    }));
  return {
    id: env.id,
    object: "chat.completion",
    created: env.created,
    model: env.model,
    choices: [{ index: 0, message, logprobs: null, finish_reason: finishOf(out) }],
    usage: { ...usage },
    service_tier: "default",
    system_fingerprint: FINGERPRINT,
  };
}

function chunk(env: Envelope, choices: Json[], usage?: Usage): JsonObject {
  const c: JsonObject = {
    id: env.id,
    object: "chat.completion.chunk",
    created: env.created,
    model: env.model,
    service_tier: "default",
    system_fingerprint: FINGERPRINT,
    choices,
  };
  if (env.includeUsage) c.usage = usage ? { ...usage } : null;
  return c;
}
const deltaChunk = (env: Envelope, delta: JsonObject, finish: string | null = null): JsonObject =>
  chunk(env, [{ index: 0, delta, logprobs: null, finish_reason: finish }]);

/**
 * The chunk sequence OpenAI streams: a role preamble (carrying `content: ""`, or the first
 * tool-call header when there is no text), content pieces, per-call header + argument
 * fragments, an empty delta with finish_reason, and (include_usage) a `choices: []` usage chunk.
 * Index 0 is always the preamble, so content piece k is chunk k+1.
 */
export function streamChunks(env: Envelope, out: Output, usage: Usage): JsonObject[] {
  const chunks: JsonObject[] = [];
  const header = (c: ResolvedToolCall, index: number): JsonObject => ({
    index,
    id: c.id,
    type: "function",
    function: { name: c.name, arguments: "" },
  });
  const textFirst = out.content !== null || out.toolCalls.length === 0;
  if (textFirst) chunks.push(deltaChunk(env, { role: "assistant", content: "", refusal: null }));
  for (const piece of split(out.content ?? "", out.chunks)) chunks.push(deltaChunk(env, { content: piece }));
  out.toolCalls.forEach((c, index) => {
    if (!textFirst && index === 0)
      chunks.push(
        deltaChunk(env, { role: "assistant", content: null, tool_calls: [header(c, index)], refusal: null }),
      );
    else chunks.push(deltaChunk(env, { tool_calls: [header(c, index)] }));
    for (const frag of split(c.arguments, undefined, 6))
      chunks.push(deltaChunk(env, { tool_calls: [{ index, function: { arguments: frag } }] }));
  });
  chunks.push(deltaChunk(env, {}, finishOf(out)));
  if (env.includeUsage) chunks.push(chunk(env, [], usage));
  return chunks;
}

export function errorBody(message: string, status: number, code: string | null = null): JsonObject {
  const type =
    status === 429
      ? "rate_limit_error"
      : status >= 500
        ? "server_error"
        : status === 401
          ? "authentication_error"
          : "invalid_request_error";
  return {
    error: { message, type, code: code ?? (status === 429 ? "rate_limit_exceeded" : null), param: null },
  };
}
