/**
 * Runs one tool call with the loop's guards: argument validation, a timeout, a retry-request
 * budget and a result-size budget. Every failure becomes a result the model can read.
 */
import { z } from "zod";
import type { PendingQuestion, PendingTakeover } from "../../../schemas/events";
import { CirrusError } from "../errors";
import type { ResultSpill } from "../files/result-spill";
import type { Redaction } from "../secrets/secret-redactor";
import { isFinish, isSuspension, RetryRequest, type ToolContext, ToolError, type ToolRegistry } from "./tool";

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

/** Cuts a result to the budget, saying how much was left out. */
export function applyResultBudget(content: string, maxChars: number): string {
  if (content.length <= maxChars) return content;
  const note = `\n\n[result truncated: showing ${maxChars} of ${content.length} characters. Ask for a smaller part (e.g. a selector, a max_length, an offset) to see the rest.]`;
  return content.slice(0, maxChars) + note;
}

/** Multi-line strings longer than this are written out raw when a result is saved, so opfs_read can page them. */
const RAW_FIELD_CHARS = 1000;
/** Lines of a saved result longer than this are wrapped, so every page opfs_read returns stays small. */
export const SPILL_LINE_CHARS = 2000;

/** Wraps lines longer than {@link SPILL_LINE_CHARS}; says whether any was. */
function wrapLongLines(text: string): { text: string; wrapped: boolean } {
  let wrapped = false;
  const lines = text.split("\n").map((line) => {
    if (line.length <= SPILL_LINE_CHARS) return line;
    wrapped = true;
    const parts: string[] = [];
    for (let i = 0; i < line.length; i += SPILL_LINE_CHARS) parts.push(line.slice(i, i + SPILL_LINE_CHARS));
    return parts.join("\n");
  });
  return { text: wrapped ? lines.join("\n") : text, wrapped };
}

/** The text a saved result is written as: strings as is, values as indented JSON with long texts raw. */
export function spillText(value: unknown, content: string): string {
  if (typeof value === "string") return value;
  if (value && typeof value === "object" && !Array.isArray(value)) {
    const entries = Object.entries(value as Record<string, unknown>);
    const raw = entries.filter(
      ([, v]) => typeof v === "string" && v.length > RAW_FIELD_CHARS && v.includes("\n"),
    );
    if (raw.length > 0) {
      const rest = Object.fromEntries(entries.filter(([k]) => !raw.some(([r]) => r === k)));
      return [JSON.stringify(rest, null, 2), ...raw.map(([k, v]) => `\n--- ${k} ---\n${v}`)].join("\n");
    }
  }
  try {
    return JSON.stringify(value, null, 2) ?? content;
  } catch {
    return content;
  }
}

/** The text a result is saved to the workspace as (see docs/context.md); says whether lines were wrapped. */
export function savedResultText(value: unknown, content: string): { text: string; wrapped: boolean } {
  return wrapLongLines(spillText(value, content));
}

const SPILL_NOTE =
  /The whole result \((\d+) lines[^)]*\) is saved in the workspace as "([^"]+)"\. Read the rest with opfs_read /;

/** Where an oversized result was saved whole, and its lines (from its note); null when it was not. */
export function spilledResultOf(content: string): { path: string; lines: number } | null {
  const m = SPILL_NOTE.exec(content.slice(-2000));
  return m ? { path: m[2], lines: Number(m[1]) } : null;
}

/**
 * Fits a result into the budget. With a spill, an oversized result is saved whole to the workspace
 * and the model gets its beginning plus the path to read on; without one (or if saving fails) it is cut.
 */
export async function fitResult(
  value: unknown,
  content: string,
  maxChars: number,
  spill: ResultSpill | undefined,
  ids: { conversationId: string; toolCallId: string },
): Promise<string> {
  if (content.length <= maxChars) return content;
  if (!spill) return applyResultBudget(content, maxChars);
  const { text: full, wrapped } = savedResultText(value, content);
  let path: string;
  try {
    path = await spill.save(ids.conversationId, ids.toolCallId, full);
  } catch {
    return applyResultBudget(content, maxChars);
  }
  let head = full.slice(0, maxChars);
  const lastNl = head.lastIndexOf("\n");
  if (lastNl > maxChars / 2 && head.length < full.length) head = head.slice(0, lastNl + 1);
  const shownLines = head.split("\n").length - (head.endsWith("\n") ? 1 : 0);
  const nextOffset = head.endsWith("\n") ? shownLines + 1 : Math.max(shownLines, 1);
  const lines = full.split("\n");
  const longest = lines.slice(nextOffset - 1).reduce((m, l) => Math.max(m, l.length + 1), 1);
  // A page of this many lines fits the budget, so reading on never spills again.
  const limit = Math.max(1, Math.min(200, Math.floor(maxChars / 2 / longest)));
  const next = JSON.stringify({ path, mode: "text", offset: nextOffset, limit });
  const totalLines = lines.length;
  return `${head}\n\n[result too large for the context: showing the first ${head.length} of ${full.length} characters. The whole result (${totalLines} lines${wrapped ? `, lines over ${SPILL_LINE_CHARS} characters wrapped` : ""}) is saved in the workspace as "${path}". Read the rest with opfs_read ${next}, then page on with the next_offset it returns.]`;
}

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
  const refused = registry.refusal(name);
  if (refused) return errorResult("tool_not_allowed", refused);
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
    const raw = await Promise.race([
      tool.execute(parsed.data, { ...ctx, signal: controller.signal }),
      timeout,
    ]);
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
      content: await fitResult(value, serializeResult(value), limits.maxResultChars, spill, ctx),
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
    // Every kind of expected failure (tools', files', network, search, browser) is read by the model.
    if (err instanceof CirrusError) return errorResult(err.code, err.message);
    if (ctx.signal?.aborted) return errorResult("cancelled", `${name} was cancelled.`);
    const message = err instanceof Error ? err.message : String(err);
    return errorResult("tool_failed", `${name} failed: ${message}`);
  } finally {
    clearTimeout(timer);
    ctx.signal?.removeEventListener("abort", onOuterAbort);
  }
}
