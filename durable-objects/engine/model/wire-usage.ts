/**
 * A model call's token usage as the provider reports it, streamed (the last chunk's `usage`) or
 * not (the completion's `usage`): prompt and completion tokens, and the input tokens served from
 * the provider's prompt cache, in whichever of the three shapes the endpoint uses.
 */
import type { Usage } from "./model-types";

/** The usage fields OpenAI-compatible endpoints send (each provider a subset). */
export interface WireUsage {
  prompt_tokens?: number | null;
  completion_tokens?: number | null;
  total_tokens?: number | null;
  /** OpenAI (and gateways that follow it). */
  prompt_tokens_details?: { cached_tokens?: number | null } | null;
  /** DeepSeek: cache hits and misses, which add up to prompt_tokens. */
  prompt_cache_hit_tokens?: number | null;
  /** Anthropic-style, where a gateway passes it on. */
  cache_read_input_tokens?: number | null;
}

const num = (v: unknown): number => (typeof v === "number" && Number.isFinite(v) && v > 0 ? v : 0);

/** Cached input tokens of a usage record: OpenAI's, else DeepSeek's, else the Anthropic-style field. */
export function cachedTokensOf(u: WireUsage): number {
  return (
    num(u.prompt_tokens_details?.cached_tokens) ||
    num(u.prompt_cache_hit_tokens) ||
    num(u.cache_read_input_tokens)
  );
}

/**
 * Our usage record from the wire's. Cached tokens are part of the input; when an endpoint reports
 * more cached tokens than prompt tokens, its prompt count left the cache reads out (Anthropic's
 * own `input_tokens` does), so they are added to it.
 */
export function usageFromWire(u: WireUsage | null | undefined): Usage {
  if (!u) return { input_tokens: 0, output_tokens: 0, total_tokens: 0 };
  const cached = cachedTokensOf(u);
  const prompt = num(u.prompt_tokens);
  const input = cached > prompt ? prompt + cached : prompt;
  const output = num(u.completion_tokens);
  const total = cached > prompt ? input + output : num(u.total_tokens) || input + output;
  return {
    input_tokens: input,
    output_tokens: output,
    total_tokens: total,
    ...(cached ? { cached_input_tokens: cached } : {}),
  };
}
