/**
 * Which tool results show a tab as it no longer is. A result about a tab (a page read, a script's
 * output, a screenshot's description) describes that tab's document at the time; once the tab has
 * gone to another URL (the fragment aside) or has been closed, the old result is a stale snapshot. The clearing step keeps the newest results the model may still act on, so
 * stale snapshots do not count among them (they are cleared first; their stubs still name them).
 */
import type { ToolCall } from "../model/model-types";
import type { StoredMessage } from "../store/message-store";

/** What one tool result says about a tab: which tab, at which URL (when it says). */
interface TabMention {
  tab: number;
  url: string | null;
}

const record = (text: string): Record<string, unknown> => {
  try {
    const v = JSON.parse(text) as unknown;
    return v && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
  } catch {
    return {};
  }
};

const tabNumber = (v: unknown): number | null =>
  Number.isInteger(v) && (v as number) > 0 ? (v as number) : null;

/** The tab a result is about: its `tab_id`, the call's `tab_id`, or (for the *_tab tools) the tab record's `id`. */
function tabMention(call: ToolCall | undefined, content: string): TabMention | null {
  const result = record(content);
  const args = record(call?.function.arguments ?? "");
  const ownsId = call?.function.name.endsWith("_tab") ?? false;
  const tab = tabNumber(result.tab_id) ?? tabNumber(args.tab_id) ?? (ownsId ? tabNumber(result.id) : null);
  if (tab === null) return null;
  return { tab, url: typeof result.url === "string" ? result.url.replace(/#.*$/, "") : null };
}

/** The ids of tool messages whose tab has since moved on: a later result shows it at another URL, or it was closed. */
export function staleTabResults(
  stored: readonly StoredMessage[],
  calls: ReadonlyMap<string, ToolCall>,
): Set<number> {
  const stale = new Set<number>();
  const open = new Map<number, { id: number; url: string }[]>();
  for (const m of stored) {
    if (m.message.role !== "tool") continue;
    const call = calls.get(m.message.tool_call_id);
    const mention = tabMention(call, String(m.message.content ?? ""));
    if (!mention) continue;
    const closed = call?.function.name === "close_tab";
    const earlier = open.get(mention.tab) ?? [];
    const moved = (url: string) => closed || (mention.url !== null && url !== mention.url);
    for (const e of earlier) if (moved(e.url)) stale.add(e.id);
    // Only a result that says where the tab was is a snapshot of it (a sub-agent's report is not).
    const snapshot = mention.url === null ? [] : [{ id: m.id, url: mention.url }];
    open.set(mention.tab, [...earlier.filter((e) => !stale.has(e.id)), ...snapshot]);
  }
  return stale;
}
