/** Types shared by the loop and the model clients (a small subset of the OpenAI chat format). */

/** A function tool call as stored on an assistant message. */
export interface ToolCall {
  id: string;
  type: "function";
  function: { name: string; arguments: string };
}

/** One chat message in OpenAI's format. */
export type ChatMessage =
  | { role: "system"; content: string }
  | { role: "user"; content: string }
  | { role: "assistant"; content: string | null; tool_calls?: ToolCall[] }
  | { role: "tool"; tool_call_id: string; content: string };

/** A user message carrying an image, for vision models: built per request, never stored. */
export interface ImageMessage {
  role: "user";
  content: (
    | { type: "text"; text: string }
    | { type: "image_url"; image_url: { url: string; detail?: "auto" | "low" | "high" } }
  )[];
}

/** A tool as offered to the model. */
export interface ToolSpec {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
}

/** Token counts of one model call or a whole run. */
export interface Usage {
  input_tokens: number;
  output_tokens: number;
  total_tokens: number;
  /** Input tokens served from the provider's prompt cache (part of input_tokens). */
  cached_input_tokens?: number;
}

/** What one model turn produced. */
export interface ModelTurn {
  text: string;
  toolCalls: ToolCall[];
  usage: Usage;
  finishReason: string | null;
  /** The model that answered, as the endpoint reported it (may name a snapshot). */
  responseModel?: string;
}

/** Streaming notifications from a model call, in order. */
export type ModelDelta =
  | { kind: "text"; delta: string }
  | { kind: "tool_call_start"; index: number; id: string; name: string }
  | { kind: "tool_call_args"; index: number; delta: string }
  /** The call is being retried from scratch: discard what the earlier attempt streamed. */
  | { kind: "restart"; attempt: number; reason: string };

/** A request for one model turn. */
export interface ModelRequest {
  model: string;
  messages: (ChatMessage | ImageMessage)[];
  tools: ToolSpec[];
  signal?: AbortSignal;
  maxOutputTokens?: number;
  /** Structured output: the answer must be JSON matching this schema (the grader's call). */
  responseFormat?: JsonSchemaFormat;
}

/** OpenAI's `response_format` of type `json_schema`. */
export interface JsonSchemaFormat {
  type: "json_schema";
  json_schema: { name: string; schema: Record<string, unknown>; strict?: boolean };
}

/** Anything that can produce a model turn: OpenAI-compatible endpoints, Workers AI. */
export interface ModelClient {
  /** Runs one turn, streaming deltas to `onDelta` as they arrive. */
  complete(req: ModelRequest, onDelta: (d: ModelDelta) => void): Promise<ModelTurn>;
}

/** Adds two usage records. */
export function addUsage(a: Usage, b: Usage): Usage {
  const sum: Usage = {
    input_tokens: a.input_tokens + b.input_tokens,
    output_tokens: a.output_tokens + b.output_tokens,
    total_tokens: a.total_tokens + b.total_tokens,
  };
  const cached = (a.cached_input_tokens ?? 0) + (b.cached_input_tokens ?? 0);
  return cached ? { ...sum, cached_input_tokens: cached } : sum;
}

/** A zero usage record. */
export const ZERO_USAGE: Usage = Object.freeze({ input_tokens: 0, output_tokens: 0, total_tokens: 0 });
