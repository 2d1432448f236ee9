/**
 * Fits a tool's result into the context budget: an oversized result is cut, or saved whole to the
 * workspace with a note saying where to read on (see docs/context.md).
 */
import type { ResultSpill } from "../files/result-spill";

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
