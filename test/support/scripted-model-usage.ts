/**
 * Usage accounting for the scripted OpenAI-compatible model server (see ./scripted-model.ts):
 * token estimates from the request and the answer, and prompt-cache hits in each provider's shape.
 */
import { isRecord, type Output, type TokenUsage } from "./scripted-model-turns.ts";

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
