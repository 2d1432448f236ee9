/**
 * The model client for a Workers AI binding, used when no OpenAI key is configured so a fresh
 * deploy works without one. Workers AI answers in one piece; it is reported as one text delta.
 */

import type { ModelClient, ToolCall } from "./model-types";
import { ModelError } from "./openai-client";
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

/** Builds a {@link ModelClient} over a Workers AI binding. */
export function createWorkersAiClient(ai: WorkersAiBinding, defaultModel: string): ModelClient {
  return {
    async complete(req, onDelta) {
      const model = req.model.startsWith("@cf/") ? req.model : defaultModel;
      let out: WorkersAiOutput;
      try {
        out = (await ai.run(model, {
          messages: req.messages,
          tools: req.tools.length ? req.tools.map((t) => ({ type: "function", function: t })) : undefined,
          max_tokens: req.maxOutputTokens,
          ...(req.responseFormat ? { response_format: req.responseFormat } : {}),
        })) as WorkersAiOutput;
      } catch (err) {
        throw new ModelError(
          `Workers AI failed: ${err instanceof Error ? err.message : String(err)}. No OPENAI_API_KEY is set, so Cirrus used the Workers AI binding (locally it needs a Cloudflare login); set OPENAI_API_KEY and OPENAI_BASE_URL to use an OpenAI-compatible model instead.`,
          "model_not_configured",
          undefined,
          { cause: err },
        );
      }
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
