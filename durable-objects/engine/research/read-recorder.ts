/**
 * Wraps the reading tools of a tool set so every page a run reads is recorded: web_fetch (the
 * URL asked for, the URL it ended at, the text returned), get_tab_content (the tab's URL and the
 * text returned) and open_tab (the URL asked for and the tab's URL, no text). Sub-agents get
 * their tools from the same set, so their reads count for the run too.
 */
import type { Tool, ToolRegistry } from "../tools/tool";
import type { ReadRecord } from "./read-log";

/** Where reads go. */
export interface ReadSink {
  record(runId: string, read: ReadRecord): void;
}

type Fields = Record<string, unknown>;
const str = (v: unknown): string | null => (typeof v === "string" && v ? v : null);

/** What each reading tool's arguments and result say was read. */
const READERS: Record<string, (args: Fields, out: Fields) => Omit<ReadRecord, "tool">> = {
  web_fetch: (args, out) => ({
    url: str(out.url) ?? str(args.url),
    finalUrl: str(out.final_url),
    text: str(out.content) ?? "",
  }),
  get_tab_content: (_args, out) => ({ url: null, finalUrl: str(out.url), text: str(out.content) ?? "" }),
  open_tab: (args, out) => ({ url: str(args.url), finalUrl: str(out.url), text: null }),
};

/** The tool with its successful results recorded in `sink` (a failed record never fails the call). */
function recorded(tool: Tool, sink: ReadSink, read: (typeof READERS)[string]): Tool {
  return {
    ...tool,
    execute: async (args, ctx) => {
      const out = await tool.execute(args, ctx);
      if (ctx.runId && out && typeof out === "object") {
        try {
          sink.record(ctx.runId, { tool: tool.name, ...read(args as Fields, out as Fields) });
        } catch (err) {
          console.warn("recording a read failed", (err as Error).message);
        }
      }
      return out;
    },
  };
}

/** Replaces the reading tools of `registry` with recording ones. */
export function recordReads(registry: ToolRegistry, sink: ReadSink): ToolRegistry {
  for (const [name, read] of Object.entries(READERS)) {
    const tool = registry.get(name);
    if (tool) registry.add(recorded(tool, sink, read));
  }
  return registry;
}
