/**
 * The model client for a Workers AI binding, used when no OpenAI key is configured so a fresh
 * deploy works without one. Workers AI answers in one piece; it is reported as one text delta.
 */

import type { ModelClient, ToolCall } from "./model-types";
import { ModelError } from "./openai-client";
import { type RetryPolicy, retryDelayMs, sleep } from "./retry";
import { usageFromWire, type WireUsage } from "./wire-usage";

/** The part of the Workers AI binding this client uses. */
export interface WorkersAiBinding {
  run(model: string, input: Record<string, unknown>, options?: Record<string, unknown>): Promise<unknown>;
}

interface WorkersAiOutput {
  response?: string | null;
  tool_calls?: { id?: string; name: string; arguments: unknown }[];
  usage?: WireUsage;
}

/**
 * Workers AI's internal codes of failures another attempt (or another model) may not share, with
 * the HTTP status they stand for (developers.cloudflare.com/workers-ai/platform/errors): a
 * timeout, the account's allocation used up, no capacity left.
 */
const TRANSIENT_CODES: Readonly<Record<string, number>> = { "3007": 408, "3036": 429, "3040": 429 };

/** The binding's status of its last request (workerd's ai-api sets it), when it has one. */
const lastStatus = (ai: WorkersAiBinding) =>
  (ai as { lastRequestHttpStatusCode?: unknown }).lastRequestHttpStatusCode;

/**
 * A failed call as a {@link ModelError}: a rate limit, a timeout or an outage keeps its code
 * (retried, and passed on to a fallback model); anything else is most likely the binding's setup.
 */
export function workersAiError(err: unknown, ai: WorkersAiBinding): ModelError {
  const message = err instanceof Error ? err.message : String(err);
  const known = TRANSIENT_CODES[/^(\d{4,5}):/.exec(message)?.[1] ?? ""];
  const last = lastStatus(ai);
  const status = known ?? (typeof last === "number" && last >= 400 ? last : undefined);
  if (status === 429 || status === 408 || (status !== undefined && status >= 500))
    return new ModelError(
      `Workers AI answered ${status}: ${message}`,
      status === 429 ? "model_rate_limited" : "model_unavailable",
      status,
      { cause: err },
    );
  if (/network connection lost/i.test(message))
    return new ModelError(`Workers AI unreachable: ${message}`, "model_unreachable", undefined, {
      cause: err,
    });
  return new ModelError(
    `Workers AI failed: ${message}. No OPENAI_API_KEY is set, so Cirrus used the Workers AI binding (locally it needs a Cloudflare login); set OPENAI_API_KEY and OPENAI_BASE_URL to use an OpenAI-compatible model instead.`,
    "model_not_configured",
    undefined,
    { cause: err },
  );
}

/** One call, tried again after a transient failure while `retry` allows. */
async function runWithRetry(
  ai: WorkersAiBinding,
  retry: RetryPolicy,
  model: string,
  input: Record<string, unknown>,
  signal: AbortSignal | undefined,
): Promise<WorkersAiOutput> {
  for (let attempt = 1; ; attempt++) {
    try {
      return (await ai.run(model, input)) as WorkersAiOutput;
    } catch (err) {
      const failure = workersAiError(err, ai);
      if (failure.code === "model_not_configured" || attempt >= retry.maxAttempts) throw failure;
      await sleep(retryDelayMs(attempt, null, retry), signal).catch(() => {
        throw new ModelError("cancelled", "cancelled");
      });
    }
  }
}

/** Builds a {@link ModelClient} over a Workers AI binding; transient failures are retried per `retry`. */
export function createWorkersAiClient(
  ai: WorkersAiBinding,
  defaultModel: string,
  retry: RetryPolicy = { maxAttempts: 1, baseDelayMs: 0, maxDelayMs: 0 },
): ModelClient {
  return {
    async complete(req, onDelta) {
      const model = req.model.startsWith("@cf/") ? req.model : defaultModel;
      const input = {
        messages: req.messages,
        tools: req.tools.length ? req.tools.map((t) => ({ type: "function", function: t })) : undefined,
        max_tokens: req.maxOutputTokens,
        ...(req.responseFormat ? { response_format: req.responseFormat } : {}),
      };
      const out = await runWithRetry(ai, retry, model, input, req.signal);
      const text = out.response ?? "";
      if (text) onDelta({ kind: "text", delta: text });
      const toolCalls: ToolCall[] = (out.tool_calls ?? []).map((c, index) => {
        const id = c.id ?? `call_${crypto.randomUUID()}`;
        const args = typeof c.arguments === "string" ? c.arguments : JSON.stringify(c.arguments ?? {});
        onDelta({ kind: "tool_call_start", index, id, name: c.name });
        onDelta({ kind: "tool_call_args", index, delta: args });
        return { id, type: "function", function: { name: c.name, arguments: args } };
      });
      const usage = usageFromWire(out.usage);
      return { text, toolCalls, usage, finishReason: toolCalls.length ? "tool_calls" : "stop" };
    },
  };
}
