/**
 * Scripted turns for the scripted OpenAI-compatible model server (see ./scripted-model.ts):
 * the turn types a script is made of, their validation at PUT time, and the output a turn answers with.
 */
import { randomBytes } from "node:crypto";

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export const randomId = (prefix: string, bytes = 12): string => prefix + randomBytes(bytes).toString("hex");

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
  /** Report this finish_reason (e.g. "length": the output limit cut the turn) instead of stop/tool_calls. */
  finish_reason?: "length" | "content_filter";
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

const isNum = (v: unknown): boolean => typeof v === "number" && Number.isFinite(v) && v >= 0;

/** Shallow validation so that typos in a script fail loudly at PUT time. Returns an error message or null. */
export function turnProblem(t: unknown): string | null {
  if (!isRecord(t)) return "turn must be an object";
  if (t.delay_ms !== undefined && !isNum(t.delay_ms)) return "delay_ms must be a non-negative number";
  if (t.chunk_delay_ms !== undefined && !isNum(t.chunk_delay_ms))
    return "chunk_delay_ms must be a non-negative number";
  if (t.hang !== undefined && t.hang !== true) return "hang must be true";
  if (t.json_response !== undefined && t.json_response !== true) return "json_response must be true";
  if (t.finish_reason !== undefined && t.finish_reason !== "length" && t.finish_reason !== "content_filter")
    return "finish_reason must be length or content_filter";
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

export interface ResolvedToolCall {
  id: string;
  name: string;
  arguments: string;
}
export interface Output {
  content: string | null;
  toolCalls: ResolvedToolCall[];
  chunks?: number;
  /** Overrides the finish_reason the output would have (stop, or tool_calls). */
  finish?: string;
}

export function outputOf(turn: OutputTurn): Output {
  const out = plainOutputOf(turn);
  return turn.finish_reason ? { ...out, finish: turn.finish_reason } : out;
}

function plainOutputOf(turn: OutputTurn): Output {
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
