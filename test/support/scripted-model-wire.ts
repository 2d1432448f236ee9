/**
 * Wire-format helpers for the scripted OpenAI-compatible model server
 * (see ./scripted-model.ts): turn types, turn validation, token counting and
 * the exact `chat.completion` / `chat.completion.chunk` shapes OpenAI sends.
 */
import { randomBytes } from "node:crypto";

export interface TokenUsage {
  prompt_tokens: number;
  completion_tokens: number;
  /** Passed through as OpenAI reports prompt-cache hits. */
  prompt_tokens_details?: { cached_tokens: number };
  /** Passed through as DeepSeek reports them (hits + misses = prompt_tokens). */
  prompt_cache_hit_tokens?: number;
  prompt_cache_miss_tokens?: number;
  /** Passed through as an Anthropic-style gateway reports cache reads. */
  cache_read_input_tokens?: number;
}

/** The three ways providers report prompt-cache hits in an OpenAI-compatible usage record. */
export type CacheShape = "openai" | "deepseek" | "anthropic";
export const CACHE_SHAPES: readonly CacheShape[] = ["openai", "deepseek", "anthropic"];

/** `cached` of `usage.prompt_tokens` as the provider of `shape` reports it. */
export function withCachedTokens<U extends TokenUsage>(usage: U, cached: number, shape: CacheShape): U {
  const hit = Math.min(Math.max(0, Math.floor(cached)), usage.prompt_tokens);
  if (shape === "openai") return { ...usage, prompt_tokens_details: { cached_tokens: hit } };
  if (shape === "deepseek")
    return { ...usage, prompt_cache_hit_tokens: hit, prompt_cache_miss_tokens: usage.prompt_tokens - hit };
  return { ...usage, cache_read_input_tokens: hit };
}

/** The request as a provider's prefix cache sees it: the tools, then every message in order. */
function cacheText(body: unknown): string {
  if (!isRecord(body)) return "";
  const parts = [JSON.stringify(body.tools ?? null)];
  if (Array.isArray(body.messages)) for (const m of body.messages) parts.push(JSON.stringify(m));
  return parts.join("\n");
}

/**
 * The prompt tokens a provider's exact-prefix cache would serve for `body` after `previous`:
 * the share of the request that is a byte-identical prefix of the one before, of its prompt tokens.
 */
export function cachedPromptTokens(previous: unknown, body: unknown, promptTokens: number): number {
  if (previous === undefined) return 0;
  const a = cacheText(previous);
  const b = cacheText(body);
  let n = 0;
  const max = Math.min(a.length, b.length);
  while (n < max && a.charCodeAt(n) === b.charCodeAt(n)) n++;
  return b.length === 0 ? 0 : Math.floor((n / b.length) * promptTokens);
}
export interface ToolCallSpec {
  id?: string;
  name: string;
  /** Objects are JSON.stringified; strings are passed through verbatim. */
  arguments: string | object;
}
/** Options every turn may carry. */
export interface TurnOptions {
  /** Wait this long before answering. */
  delay_ms?: number;
  /** Hold the request until `POST /__scripts/:key/release` (or the client disconnects). */
  hang?: true;
  /** Report these token counts instead of the chars/4 estimate. */
  usage?: TokenUsage;
  /** Extension: pause between streamed chunks (default 0). */
  chunk_delay_ms?: number;
  /** Answer with one JSON completion even when the request asked to stream (as some gateways do). */
  json_response?: true;
}
export type TextTurn = TurnOptions & { text: string; chunks?: number };
export type ToolCallsTurn = TurnOptions & { tool_calls: ToolCallSpec[]; text?: string; chunks?: number };
export type MalformedToolCallTurn = TurnOptions & {
  malformed_tool_call: { id?: string; name: string; arguments: string };
};
export type ErrorTurn = TurnOptions & { error: { status: number; retry_after?: number; message?: string } };
/** Answers a structured-output request (`response_format` json_schema, e.g. the grader) with this value as JSON. */
export type JsonTurn = TurnOptions & { json: Json };
export type DropTurn = TurnOptions & { drop: true };
/** Streams `text`, then destroys the socket after N content chunks (the role preamble chunk is not counted). */
export type StreamErrorTurn = TurnOptions & {
  stream_error_after_chunks: number;
  text: string;
  chunks?: number;
};
export type Turn =
  | TextTurn
  | ToolCallsTurn
  | MalformedToolCallTurn
  | ErrorTurn
  | DropTurn
  | StreamErrorTurn
  | JsonTurn;
export type OutputTurn = TextTurn | ToolCallsTurn | MalformedToolCallTurn | StreamErrorTurn | JsonTurn;

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

const isNum = (v: unknown): boolean => typeof v === "number" && Number.isFinite(v) && v >= 0;

/** Shallow validation so that typos in a script fail loudly at PUT time. Returns an error message or null. */
export function turnProblem(t: unknown): string | null {
  if (!isRecord(t)) return "turn must be an object";
  if (t.delay_ms !== undefined && !isNum(t.delay_ms)) return "delay_ms must be a non-negative number";
  if (t.chunk_delay_ms !== undefined && !isNum(t.chunk_delay_ms))
    return "chunk_delay_ms must be a non-negative number";
  if (t.hang !== undefined && t.hang !== true) return "hang must be true";
  if (t.json_response !== undefined && t.json_response !== true) return "json_response must be true";
  if (t.chunks !== undefined && !(isNum(t.chunks) && Number(t.chunks) >= 1)) return "chunks must be >= 1";
  if (
    t.usage !== undefined &&
    !(isRecord(t.usage) && isNum(t.usage.prompt_tokens) && isNum(t.usage.completion_tokens))
  )
    return "usage needs prompt_tokens and completion_tokens";
  if ("drop" in t) return t.drop === true ? null : "drop must be true";
  if ("json" in t) return t.json === undefined ? "json needs a value" : null;
  if ("error" in t) return isRecord(t.error) && isNum(t.error.status) ? null : "error needs a numeric status";
  if ("stream_error_after_chunks" in t)
    return isNum(t.stream_error_after_chunks) && typeof t.text === "string"
      ? null
      : "stream_error_after_chunks needs a number and text";
  if ("malformed_tool_call" in t) {
    const m = t.malformed_tool_call;
    return isRecord(m) && typeof m.name === "string" && typeof m.arguments === "string"
      ? null
      : "malformed_tool_call needs name and arguments strings";
  }
  if ("tool_calls" in t) {
    if (!Array.isArray(t.tool_calls) || t.tool_calls.length === 0)
      return "tool_calls must be a non-empty array";
    if (t.text !== undefined && typeof t.text !== "string") return "text must be a string";
    const bad = t.tool_calls.some(
      (c: unknown) =>
        !isRecord(c) ||
        typeof c.name !== "string" ||
        !(typeof c.arguments === "string" || isRecord(c.arguments) || Array.isArray(c.arguments)),
    );
    return bad ? "each tool call needs a name and string/object arguments" : null;
  }
  return typeof t.text === "string"
    ? null
    : "unrecognised turn (expected text, tool_calls, malformed_tool_call, json, error, drop or stream_error_after_chunks)";
}

export const randomId = (prefix: string, bytes = 12): string => prefix + randomBytes(bytes).toString("hex");

export interface ResolvedToolCall {
  id: string;
  name: string;
  arguments: string;
}
export interface Output {
  content: string | null;
  toolCalls: ResolvedToolCall[];
  chunks?: number;
}

export function outputOf(turn: OutputTurn): Output {
  if ("json" in turn) return { content: JSON.stringify(turn.json), toolCalls: [] };
  if ("malformed_tool_call" in turn) {
    const m = turn.malformed_tool_call;
    return {
      content: null,
      toolCalls: [{ id: m.id ?? randomId("call_"), name: m.name, arguments: m.arguments }],
    };
  }
  if ("tool_calls" in turn) {
    const toolCalls = turn.tool_calls.map((c) => ({
      id: c.id ?? randomId("call_"),
      name: c.name,
      arguments: typeof c.arguments === "string" ? c.arguments : JSON.stringify(c.arguments),
    }));
    return { content: turn.text ?? null, toolCalls, chunks: turn.chunks };
  }
  return { content: turn.text, toolCalls: [], chunks: turn.chunks };
}

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

function contentChars(content: unknown): number {
  if (typeof content === "string") return content.length;
  if (!Array.isArray(content)) return 0;
  return content.reduce(
    (n: number, p: unknown) => n + (isRecord(p) && typeof p.text === "string" ? p.text.length : 0),
    0,
  );
}

/** Characters of message contents (string or text parts) plus tool-call names and arguments. */
export function messageChars(messages: unknown): number {
  if (!Array.isArray(messages)) return 0;
  let n = 0;
  for (const m of messages) {
    if (!isRecord(m)) continue;
    n += contentChars(m.content);
    if (Array.isArray(m.tool_calls))
      for (const c of m.tool_calls)
        if (isRecord(c) && isRecord(c.function))
          n += String(c.function.name ?? "").length + String(c.function.arguments ?? "").length;
  }
  return n;
}

export function lastUserText(messages: unknown): string {
  if (!Array.isArray(messages)) return "";
  for (let i = messages.length - 1; i >= 0; i--) {
    const m: unknown = messages[i];
    if (!isRecord(m) || m.role !== "user") continue;
    if (typeof m.content === "string") return m.content;
    if (Array.isArray(m.content))
      return m.content
        .map((p: unknown) => (isRecord(p) && typeof p.text === "string" ? p.text : ""))
        .join("");
    return "";
  }
  return "";
}

export interface Usage extends TokenUsage {
  total_tokens: number;
}
export function usageFor(out: Output, messages: unknown, given?: TokenUsage): Usage {
  const outChars =
    (out.content ?? "").length + out.toolCalls.reduce((n, c) => n + c.name.length + c.arguments.length, 0);
  const prompt_tokens = given?.prompt_tokens ?? Math.ceil(messageChars(messages) / 4);
  const completion_tokens = given?.completion_tokens ?? Math.ceil(outChars / 4);
  const { prompt_tokens: _p, completion_tokens: _c, ...cache } = given ?? {};
  return { prompt_tokens, completion_tokens, total_tokens: prompt_tokens + completion_tokens, ...cache };
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
const finishOf = (out: Output): string => (out.toolCalls.length > 0 ? "tool_calls" : "stop");

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
