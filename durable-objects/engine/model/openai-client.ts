/**
 * The model client for any OpenAI-compatible Chat Completions endpoint, built on the `openai`
 * package: streams tokens and tool calls, retries 429, 5xx and network errors with backoff.
 */
import OpenAI, { APIError, APIUserAbortError } from "openai";
import type { ChatCompletion, ChatCompletionChunk } from "openai/resources/chat/completions";
import { Stream } from "openai/streaming";
import { CirrusError } from "../errors";
import type { ModelClient, ModelDelta, ModelRequest, ModelTurn, ToolCall, Usage } from "./model-types";
import { isRetryableStatus, parseRetryAfter, type RetryPolicy, retryDelayMs, sleep } from "./retry";
import { usageFromWire, type WireUsage } from "./wire-usage";

/** A model call that failed for good; `code` is what RUN_ERROR carries. */
export class ModelError extends CirrusError {
  constructor(
    message: string,
    code: string,
    readonly status?: number,
    options?: { cause?: unknown },
  ) {
    super(code, message, options);
  }
}

/** Settings for {@link createOpenAIClient}. */
export interface OpenAIClientOptions {
  apiKey: string;
  baseURL?: string;
  retry: RetryPolicy;
  /** Called before each retry, e.g. to log it. */
  onRetry?: (attempt: number, delayMs: number, error: unknown) => void;
}

/** Builds a {@link ModelClient} over an OpenAI-compatible endpoint. */
export function createOpenAIClient(opts: OpenAIClientOptions): ModelClient {
  const client = new OpenAI({ apiKey: opts.apiKey, baseURL: opts.baseURL || undefined, maxRetries: 0 });
  return {
    async complete(req, onDelta) {
      for (let attempt = 1; ; attempt++) {
        try {
          if (attempt > 1) onDelta({ kind: "restart", attempt, reason: "retry" });
          return await streamOnce(client, req, onDelta);
        } catch (err) {
          if (req.signal?.aborted || err instanceof APIUserAbortError)
            throw new ModelError("cancelled", "cancelled");
          const status = err instanceof APIError ? err.status : undefined;
          const retryable = !(err instanceof APIError) || isRetryableStatus(status);
          if (!retryable || attempt >= opts.retry.maxAttempts) throw toModelError(err, attempt);
          const headers = err instanceof APIError ? err.headers : undefined;
          const delay = retryDelayMs(attempt, parseRetryAfter(headers), opts.retry);
          opts.onRetry?.(attempt, delay, err);
          await sleep(delay, req.signal);
        }
      }
    },
  };
}

function toModelError(err: unknown, attempts: number): ModelError {
  if (err instanceof ModelError) return err;
  if (err instanceof APIError && err.status !== undefined) {
    if (err.status === 401 || err.status === 403)
      return new ModelError(
        `The model endpoint refused the key (${err.status}): set a valid OPENAI_API_KEY for OPENAI_BASE_URL (a secret, or .dev.vars locally). ${err.message}`,
        "model_auth_failed",
        err.status,
        { cause: err },
      );
    const code =
      err.status === 429 ? "model_rate_limited" : err.status >= 500 ? "model_unavailable" : "model_error";
    return new ModelError(`model endpoint answered ${err.status}: ${err.message}`, code, err.status, {
      cause: err,
    });
  }
  const message = err instanceof Error ? err.message : String(err);
  return new ModelError(
    `model endpoint unreachable after ${attempts} attempts: ${message}`,
    "model_unreachable",
    undefined,
    {
      cause: err,
    },
  );
}

async function streamOnce(
  client: OpenAI,
  req: ModelRequest,
  onDelta: (d: ModelDelta) => void,
): Promise<ModelTurn> {
  const response = await client.chat.completions
    .create(
      {
        model: req.model,
        messages: req.messages,
        tools: req.tools.length
          ? req.tools.map((t) => ({ type: "function" as const, function: t }))
          : undefined,
        stream: true,
        stream_options: { include_usage: true },
        max_completion_tokens: req.maxOutputTokens,
        ...(req.responseFormat ? { response_format: req.responseFormat } : {}),
      },
      { signal: req.signal },
    )
    .asResponse();
  const acc = new TurnAccumulator(onDelta);
  // Some endpoints and gateways ignore `stream` and answer with one JSON completion.
  if (isJson(response)) {
    acc.addCompletion((await response.json()) as ChatCompletion);
    return acc.result();
  }
  const controller = new AbortController();
  const abort = () => controller.abort();
  req.signal?.addEventListener("abort", abort, { once: true });
  try {
    for await (const chunk of Stream.fromSSEResponse<ChatCompletionChunk>(response, controller))
      acc.add(chunk);
  } finally {
    req.signal?.removeEventListener("abort", abort);
  }
  return acc.result();
}

function isJson(response: Response): boolean {
  const type = response.headers.get("content-type")?.split(";")[0]?.trim().toLowerCase() ?? "";
  return type === "application/json" || type.endsWith("+json");
}

/** Reassembles a streamed completion: text, tool calls split across chunks, usage. */
export class TurnAccumulator {
  private text = "";
  private readonly calls = new Map<number, ToolCall>();
  private usage: Usage = { input_tokens: 0, output_tokens: 0, total_tokens: 0 };
  private finishReason: string | null = null;
  private model: string | undefined;

  constructor(private readonly onDelta: (d: ModelDelta) => void) {}

  /** Folds in one chunk, reporting what it adds. */
  add(chunk: ChatCompletionChunk): void {
    if (chunk.model) this.model = chunk.model;
    if (chunk.usage) this.usage = usageFromWire(chunk.usage as WireUsage);
    for (const choice of chunk.choices ?? []) {
      if (choice.finish_reason) this.finishReason = choice.finish_reason;
      const delta = choice.delta;
      if (delta?.content) {
        this.text += delta.content;
        this.onDelta({ kind: "text", delta: delta.content });
      }
      for (const tc of delta?.tool_calls ?? []) this.addToolCall(tc);
    }
  }

  /** Folds in a whole (non-streamed) completion, reporting its text and calls as deltas. */
  addCompletion(completion: ChatCompletion): void {
    if (completion.model) this.model = completion.model;
    if (completion.usage) this.usage = usageFromWire(completion.usage as WireUsage);
    const choice = completion.choices?.[0];
    if (!choice) return;
    if (choice.finish_reason) this.finishReason = choice.finish_reason;
    const message = choice.message;
    if (message?.content) {
      this.text += message.content;
      this.onDelta({ kind: "text", delta: message.content });
    }
    (message?.tool_calls ?? []).forEach((call, index) => {
      if (call.type !== "function") return;
      this.addToolCall({ index, id: call.id, type: "function", function: call.function });
    });
  }

  private addToolCall(tc: ChatCompletionChunk.Choice.Delta.ToolCall): void {
    let call = this.calls.get(tc.index);
    if (!call) {
      call = {
        id: tc.id || `call_${crypto.randomUUID()}`,
        type: "function",
        function: { name: "", arguments: "" },
      };
      call.function.name = tc.function?.name ?? "";
      this.calls.set(tc.index, call);
      this.onDelta({ kind: "tool_call_start", index: tc.index, id: call.id, name: call.function.name });
    } else if (tc.function?.name) {
      call.function.name += tc.function.name;
    }
    const args = tc.function?.arguments;
    if (args) {
      call.function.arguments += args;
      this.onDelta({ kind: "tool_call_args", index: tc.index, delta: args });
    }
  }

  /** The finished turn. */
  result(): ModelTurn {
    const toolCalls = [...this.calls.entries()].sort((a, b) => a[0] - b[0]).map(([, c]) => c);
    return {
      text: this.text,
      toolCalls,
      usage: this.usage,
      finishReason: this.finishReason,
      ...(this.model ? { responseModel: this.model } : {}),
    };
  }
}
