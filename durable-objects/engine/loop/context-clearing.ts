/**
 * The clearing step: once a request would pass its trigger, old bulky tool results (page
 * contents, fetches, script outputs, search results, sub-agent reports…) — all but the newest
 * few — are replaced in one step by a short stub that says what the result was and where in the
 * workspace it is saved whole. Each result is saved before it is cleared, so nothing is lost,
 * and enough is cleared at once that the one break of the provider's prompt cache pays for itself.
 */
import { savedResultPath } from "../files/result-spill";
import { DEFAULT_READ_LINES } from "../tools/files";
import type { ToolCall } from "../model/model-types";
import type { ClearedResult } from "../store/cleared-results";
import type { StoredMessage } from "../store/message-store";
import { savedResultText, spilledResultOf } from "../tools/tool-runner";
import { DEFAULT_KEEP_RESULTS, type StepDeps } from "./loop-deps";
import { staleTabResults } from "./stale-tab-reads";

/** Tool results shorter than this are never cleared: their stub would save next to nothing. */
export const CLEARABLE_MIN_CHARS = 2_000;
/**
 * A clearing step breaks the provider's prompt cache at its first cleared result: from there on the
 * next request is billed uncached once. It clears only when it frees at least this share of what it
 * so takes out of the cache (else it waits), so the break pays for itself within a few requests.
 */
export const CLEAR_AT_LEAST_SHARE = 0.5;
/** Longest argument value (URL, path, query) a stub repeats. */
const STUB_VALUE_CHARS = 160;

type ToolMessage = StoredMessage & { message: { role: "tool"; tool_call_id: string; content: string } };

const isToolMessage = (m: StoredMessage): m is ToolMessage => m.message.role === "tool";

/**
 * The tool results a clearing step may clear: bulky, not cleared yet, already seen by the model
 * (before its latest turn), and not among the newest `keep` bulky results that still show their
 * tab as it is (a snapshot of a tab that has since moved on is not kept: see stale-tab-reads.ts).
 */
export function clearableResults(
  stored: readonly StoredMessage[],
  stubs: ReadonlyMap<number, string>,
  keep: number,
  calls: ReadonlyMap<string, ToolCall> = callsOf(stored),
): ToolMessage[] {
  const lastAssistant = lastAssistantId(stored);
  const bulky = stored.filter(
    (m): m is ToolMessage => isToolMessage(m) && m.message.content.length >= CLEARABLE_MIN_CHARS,
  );
  const stale = staleTabResults(stored, calls);
  const kept = new Set(keep > 0 ? bulky.filter((m) => !stale.has(m.id)).slice(-keep) : []);
  return bulky.filter((m) => !kept.has(m) && m.id < lastAssistant && !stubs.has(m.id));
}

/** The id of the model's latest turn (0 before its first). */
function lastAssistantId(stored: readonly StoredMessage[]): number {
  let id = 0;
  for (const m of stored) if (m.message.role === "assistant") id = m.id;
  return id;
}

/** Every tool call of the messages, by id. */
function callsOf(stored: readonly StoredMessage[]): Map<string, ToolCall> {
  const calls = new Map<string, ToolCall>();
  for (const m of stored)
    if (m.message.role === "assistant") for (const c of m.message.tool_calls ?? []) calls.set(c.id, c);
  return calls;
}

const parsed = (text: string | undefined): unknown => {
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
};

const record = (v: unknown): Record<string, unknown> =>
  v && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : {};

const short = (v: unknown, max = STUB_VALUE_CHARS): string | null => {
  if (typeof v !== "string" && typeof v !== "number") return null;
  const s = String(v).replace(/\s+/g, " ").trim();
  if (!s) return null;
  return s.length > max ? `${s.slice(0, max - 1)}…` : s;
};

/** What a result was about, from its call's arguments and its own fields: tab, URL, path, query. */
export function describeResult(call: ToolCall | undefined, content: string): string {
  const args = record(parsed(call?.function.arguments));
  const result = record(parsed(content));
  const bits: string[] = [];
  const add = (label: string, v: unknown, max?: number) => {
    const s = short(v, max);
    if (s && !bits.some((b) => b.endsWith(s))) bits.push(label ? `${label} ${s}` : s);
  };
  add("tab", args.tab_id ?? result.tab_id);
  add("", args.url ?? result.url);
  add("", args.path ?? result.path);
  add("query", args.query);
  add("", args.description);
  const name = call?.function.name ?? "a tool";
  return bits.length ? `${name} (${bits.join(", ")})` : name;
}

/**
 * The text a cleared result becomes: what it was, its size, and the opfs_read call that reads it
 * back whole (the path once, the line limit only when the file is longer than a default read). A
 * stub stays in every later request, so it is kept short; the system prompt explains it.
 */
export function clearedStub(what: string, chars: number, path: string, lines: number): string {
  const read = JSON.stringify(lines > DEFAULT_READ_LINES ? { path, limit: lines } : { path });
  return `[Cleared: ${what}, ${chars.toLocaleString("en-US")} characters; saved whole: opfs_read ${read}]`;
}

/** One result's clearing: its stub, and the text to save (null when a spill already saved it whole). */
interface ClearPlan {
  message: ToolMessage;
  stub: string;
  save: { path: string; text: string } | null;
}

function planFor(conversationId: string, m: ToolMessage, call: ToolCall | undefined): ClearPlan {
  const { content, tool_call_id } = m.message;
  const what = describeResult(call, content);
  const spilled = spilledResultOf(content);
  if (spilled)
    return { message: m, stub: clearedStub(what, content.length, spilled.path, spilled.lines), save: null };
  const value = parsed(content) ?? content;
  const { text } = savedResultText(value, content);
  const path = savedResultPath(conversationId, tool_call_id);
  const lines = text.split("\n").length;
  return { message: m, stub: clearedStub(what, content.length, path, lines), save: { path, text } };
}

/** What a clearing step did. */
export interface Cleared {
  results: ClearedResult[];
}

/** How much of the last request a step clearing from `first` on takes out of the cache, in characters. */
function uncachedByClearing(
  stored: readonly StoredMessage[],
  stubs: ReadonlyMap<number, string>,
  first: number,
) {
  const lastAssistant = lastAssistantId(stored);
  let chars = 0;
  for (const m of stored)
    if (m.id >= first && m.id < lastAssistant)
      chars += stubs.get(m.id)?.length ?? JSON.stringify(m.message).length;
  return chars;
}

/**
 * Clears old bulky results of a scope whose context is over its trigger: saves each whole to the
 * workspace, then records its stub. Returns what it cleared, or null when it cleared nothing —
 * nothing to clear, too little to be worth a cache break (unless `force`), or no place to save.
 */
export async function clearOldResults(
  deps: StepDeps,
  stored: readonly StoredMessage[],
  stubs: ReadonlyMap<number, string>,
  force: boolean,
): Promise<Cleared | null> {
  const spill = deps.spill;
  if (!spill) return null;
  const keep = deps.settings.keepResults ?? DEFAULT_KEEP_RESULTS;
  const calls = callsOf(stored);
  const candidates = clearableResults(stored, stubs, keep, calls);
  if (candidates.length === 0) return null;
  const plans = candidates.map((m) => planFor(deps.conversationId, m, calls.get(m.message.tool_call_id)));
  const freed = plans.reduce((n, p) => n + p.message.message.content.length - p.stub.length, 0);
  const uncached = uncachedByClearing(stored, stubs, candidates[0].id);
  if (!force && freed < uncached * CLEAR_AT_LEAST_SHARE) return null;
  const saved = await Promise.all(
    plans.map(async (p) => {
      if (!p.save) return p;
      try {
        await spill.save(deps.conversationId, p.message.message.tool_call_id, p.save.text);
        return p;
      } catch {
        return null; // not saved: it stays in the context whole
      }
    }),
  );
  const results = saved
    .filter((p): p is ClearPlan => p !== null)
    .map((p) => ({ messageId: p.message.id, stub: p.stub }));
  if (results.length === 0) return null;
  deps.cleared.add(results);
  return { results };
}
