/**
 * Runs one tool call with the loop's guards: argument validation, a timeout, a retry-request
 * budget and a result-size budget. Every failure becomes a result the model can read.
 */
import { z } from "zod";
import type { PendingQuestion, PendingTakeover } from "../../../schemas/events";
import { CirrusError } from "../errors";
import type { ResultSpill } from "../files/result-spill";
import type { Redaction } from "../secrets/secret-redactor";
import { fitResult } from "./result-fit";
import { unknownToolMessage } from "./unknown-tool";
import {
  isFinish,
  isSuspension,
  RetryRequest,
  type Tool,
  type ToolContext,
  ToolError,
  type ToolRegistry,
} from "./tool";

export {
  applyResultBudget,
  fitResult,
  SPILL_LINE_CHARS,
  savedResultText,
  spilledResultOf,
  spillText,
} from "./result-fit";

/** Limits applied to every tool call. */
export interface RunnerLimits {
  timeoutMs: number;
  maxResultChars: number;
  retryBudget: number;
}

/** What a tool call came to. */
export type ToolOutcome =
  | { kind: "result"; content: string; isError: boolean; code?: string; message?: string; value?: unknown }
  | { kind: "suspend"; question: PendingQuestion }
  | { kind: "takeover"; takeover: PendingTakeover }
  | { kind: "finish"; result: unknown; content: string };

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

/** How {@link errorResult}'s content begins, up to its code. */
const ERROR_CONTENT = /^\{"ok":false,"error":\{"code":"([^"\\]*)"/;

/** The code of a stored tool result written by {@link errorResult}; undefined for any other result. */
export const errorCodeOf = (content: string): string | undefined => ERROR_CONTENT.exec(content)?.[1];

/** Validates arguments and runs a tool, turning every failure into a readable result with secrets redacted. */
export async function runTool(
  registry: ToolRegistry,
  name: string,
  rawArgs: string | Record<string, unknown>,
  ctx: Omit<ToolContext, "signal"> & { signal?: AbortSignal },
  limits: RunnerLimits,
  retries: RetryCounters = {},
  spill?: ResultSpill,
): Promise<ToolOutcome> {
  const redaction = registry.redaction;
  await redaction?.ready();
  const outcome = await runToolUnredacted(registry, name, rawArgs, ctx, limits, retries, spill);
  // A successful result was redacted as a value, before it was sized or saved to the workspace.
  return redaction && !(outcome.kind === "result" && !outcome.isError)
    ? redactOutcome(outcome, redaction)
    : outcome;
}

/** The one redaction step at the tool-result boundary: what the model, events and logs get. */
function redactOutcome(outcome: ToolOutcome, r: Redaction): ToolOutcome {
  switch (outcome.kind) {
    case "result":
      return {
        ...outcome,
        content: r.text(outcome.content),
        ...(outcome.message === undefined ? {} : { message: r.text(outcome.message) }),
        ...(outcome.value === undefined ? {} : { value: r.value(outcome.value) }),
      };
    case "finish":
      return { ...outcome, result: r.value(outcome.result) };
    default:
      return outcome;
  }
}

async function runToolUnredacted(
  registry: ToolRegistry,
  name: string,
  rawArgs: string | Record<string, unknown>,
  ctx: Omit<ToolContext, "signal"> & { signal?: AbortSignal },
  limits: RunnerLimits,
  retries: RetryCounters = {},
  spill?: ResultSpill,
): Promise<ToolOutcome> {
  const call = resolveCall(registry, name, rawArgs);
  if ("error" in call) return call.error;
  const deadline = toolDeadline(name, call.tool.timeoutMs ?? limits.timeoutMs, ctx.signal);
  try {
    const raw = await Promise.race([
      call.tool.execute(call.args, { ...ctx, signal: deadline.signal }),
      deadline.timeout,
    ]);
    return await returnedOutcome(registry, raw, limits, spill, ctx);
  } catch (err) {
    return failedOutcome(err, name, limits, retries, ctx.signal);
  } finally {
    deadline.clear();
  }
}

/** The tool a call names with its validated arguments, or the error result that answers the call instead. */
function resolveCall(
  registry: ToolRegistry,
  name: string,
  rawArgs: string | Record<string, unknown>,
): { tool: Tool; args: unknown } | { error: ToolOutcome } {
  const refused = registry.refusal(name);
  if (refused) return { error: errorResult("tool_not_allowed", refused) };
  const tool = registry.get(name);
  if (!tool) {
    return {
      error: errorResult("unknown_tool", unknownToolMessage(name, registry)),
    };
  }
  let args: unknown = rawArgs;
  if (typeof rawArgs === "string") {
    try {
      args = rawArgs.trim() === "" ? {} : JSON.parse(rawArgs);
    } catch (err) {
      return {
        error: errorResult(
          "invalid_arguments",
          `Arguments for ${name} are not valid JSON (${(err as Error).message}). Send a JSON object.`,
        ),
      };
    }
  }
  const parsed = tool.parameters.safeParse(args);
  if (!parsed.success) {
    return {
      error: errorResult(
        "invalid_arguments",
        `Invalid arguments for ${name}:\n${z.prettifyError(parsed.error)}`,
      ),
    };
  }
  return { tool, args: parsed.data };
}

/** The signal one tool run gets: aborted with the run's own, or with a timeout error when its time is up. */
function toolDeadline(
  name: string,
  timeoutMs: number,
  outer: AbortSignal | undefined,
): { signal: AbortSignal; timeout: Promise<never>; clear(): void } {
  const controller = new AbortController();
  const onOuterAbort = () => controller.abort(outer?.reason);
  outer?.addEventListener("abort", onOuterAbort, { once: true });
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      controller.abort(
        new ToolError("timeout", `${name} did not finish within ${timeoutMs / 1000} s and was stopped.`),
      );
      reject(controller.signal.reason);
    }, timeoutMs);
  });
  const clear = () => {
    clearTimeout(timer);
    outer?.removeEventListener("abort", onOuterAbort);
  };
  return { signal: controller.signal, timeout, clear };
}

/** What a tool's return value comes to: a pause for a person, a finish, or a result fitted to the budget. */
async function returnedOutcome(
  registry: ToolRegistry,
  raw: unknown,
  limits: RunnerLimits,
  spill: ResultSpill | undefined,
  ids: { conversationId: string; toolCallId: string },
): Promise<ToolOutcome> {
  const value =
    registry.redaction && !isSuspension(raw) && !isFinish(raw) ? registry.redaction.value(raw) : raw;
  if (isSuspension(value))
    return value.takeover
      ? { kind: "takeover", takeover: value.takeover }
      : { kind: "suspend", question: value.question };
  if (isFinish(value))
    return { kind: "finish", result: value.result, content: JSON.stringify({ ok: true, finished: true }) };
  return {
    kind: "result",
    isError: false,
    value,
    content: await fitResult(value, serializeResult(value), limits.maxResultChars, spill, ids),
  };
}

/** The result the model reads for a tool run that threw: a retry request, an expected failure, a cancellation or a crash. */
function failedOutcome(
  err: unknown,
  name: string,
  limits: RunnerLimits,
  retries: RetryCounters,
  signal: AbortSignal | undefined,
): ToolOutcome {
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
  // Every kind of expected failure (tools', files', network, search, browser) is read by the model.
  if (err instanceof CirrusError) return errorResult(err.code, err.message);
  if (signal?.aborted) return errorResult("cancelled", `${name} was cancelled.`);
  const message = err instanceof Error ? err.message : String(err);
  return errorResult("tool_failed", `${name} failed: ${message}`);
}
