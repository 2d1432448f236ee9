/**
 * Runs one tool call with the loop's guards: argument validation, a timeout, a retry-request
 * budget and a result-size budget. Every failure becomes a result the model can read.
 */
import { z } from "zod";
import type { PendingQuestion } from "../../shared/events";
import { isSuspension, RetryRequest, type ToolContext, ToolError, type ToolRegistry } from "./tool";

/** Default limits; each can be overridden per conversation through {@link RunnerLimits}. */
export const DEFAULT_TOOL_TIMEOUT_MS = 120_000;
export const DEFAULT_MAX_RESULT_CHARS = 50_000;
export const DEFAULT_RETRY_BUDGET = 3;

/** Limits applied to every tool call. */
export interface RunnerLimits {
  timeoutMs: number;
  maxResultChars: number;
  retryBudget: number;
}

/** What a tool call came to. */
export type ToolOutcome =
  | { kind: "result"; content: string; isError: boolean; code?: string; message?: string; value?: unknown }
  | { kind: "suspend"; question: PendingQuestion };

/** Per-run counters the runner reads and updates (persisted with the run). */
export interface RetryCounters {
  [toolName: string]: number;
}

/** Serialises a tool's return value for the model: strings as is, everything else as JSON. */
export function serializeResult(value: unknown): string {
  if (typeof value === "string") return value;
  if (value === undefined) return "null";
  try {
    const json = JSON.stringify(value);
    return json === undefined ? String(value) : json;
  } catch {
    return String(value);
  }
}

/** A tool error in the one shape the model reads. */
export function errorResult(code: string, message: string): ToolOutcome {
  return {
    kind: "result",
    isError: true,
    code,
    message,
    content: JSON.stringify({ ok: false, error: { code, message } }),
  };
}

/** Cuts a result to the budget, saying how much was left out. */
export function applyResultBudget(content: string, maxChars: number): string {
  if (content.length <= maxChars) return content;
  const note = `\n\n[result truncated: showing ${maxChars} of ${content.length} characters. Ask for a smaller part (e.g. a selector, a max_length, an offset) to see the rest.]`;
  return content.slice(0, maxChars) + note;
}

/** Validates arguments and runs a tool, turning every failure into a readable result. */
export async function runTool(
  registry: ToolRegistry,
  name: string,
  rawArgs: string | Record<string, unknown>,
  ctx: Omit<ToolContext, "signal"> & { signal?: AbortSignal },
  limits: RunnerLimits,
  retries: RetryCounters = {},
): Promise<ToolOutcome> {
  const tool = registry.get(name);
  if (!tool) {
    return errorResult(
      "unknown_tool",
      `There is no tool named "${name}". Available tools: ${registry.names().join(", ")}.`,
    );
  }
  let args: unknown = rawArgs;
  if (typeof rawArgs === "string") {
    try {
      args = rawArgs.trim() === "" ? {} : JSON.parse(rawArgs);
    } catch (err) {
      return errorResult(
        "invalid_arguments",
        `Arguments for ${name} are not valid JSON (${(err as Error).message}). Send a JSON object.`,
      );
    }
  }
  const parsed = tool.parameters.safeParse(args);
  if (!parsed.success) {
    return errorResult(
      "invalid_arguments",
      `Invalid arguments for ${name}:\n${z.prettifyError(parsed.error)}`,
    );
  }
  const timeoutMs = tool.timeoutMs ?? limits.timeoutMs;
  const controller = new AbortController();
  const onOuterAbort = () => controller.abort(ctx.signal?.reason);
  ctx.signal?.addEventListener("abort", onOuterAbort, { once: true });
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      controller.abort(
        new ToolError("timeout", `${name} did not finish within ${timeoutMs / 1000} s and was stopped.`),
      );
      reject(controller.signal.reason);
    }, timeoutMs);
  });
  try {
    const value = await Promise.race([
      tool.execute(parsed.data, { ...ctx, signal: controller.signal }),
      timeout,
    ]);
    if (isSuspension(value)) return { kind: "suspend", question: value.question };
    return {
      kind: "result",
      isError: false,
      value,
      content: applyResultBudget(serializeResult(value), limits.maxResultChars),
    };
  } catch (err) {
    if (err instanceof RetryRequest) {
      retries[name] = (retries[name] ?? 0) + 1;
      if (retries[name] > limits.retryBudget) {
        return errorResult(
          "retry_budget_exhausted",
          `${name} asked for a retry ${retries[name]} times (${err.message}). Stop calling it with guesses; explain the problem or try another approach.`,
        );
      }
      return errorResult("retry_requested", `${err.message} Call ${name} again with corrected arguments.`);
    }
    if (err instanceof ToolError) return errorResult(err.code, err.message);
    if (ctx.signal?.aborted) return errorResult("cancelled", `${name} was cancelled.`);
    const message = err instanceof Error ? err.message : String(err);
    return errorResult("tool_failed", `${name} failed: ${message}`);
  } finally {
    clearTimeout(timer);
    ctx.signal?.removeEventListener("abort", onOuterAbort);
  }
}
