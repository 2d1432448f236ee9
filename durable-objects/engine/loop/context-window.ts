/**
 * Keeps the model's context small and inside its window. The context is built in stable stages
 * (context-builder.ts); once a request would pass its trigger (`clearAtTokens`), old bulky tool
 * results are cleared (context-clearing.ts); only when clearing alone cannot keep the request
 * inside the window are the older turns summarised by the model, the summary standing in for them.
 */

import type { ChatMessage } from "../model/model-types";
import type { StoredMessage } from "../store/message-store";
import { estimateToolTokens } from "../tools/tool-offer";
import { basePrompt, buildContext, estimateTokens } from "./context-builder";
import { clearOldResults } from "./context-clearing";
import { ev } from "./event-builders";
import type { ContextSummary, StepDeps } from "./loop-deps";
import { modelOf } from "./run-model";

export { basePrompt, buildContext, estimateTokens, systemPrompt } from "./context-builder";

/** Summarise once the estimated context passes this share of the window. */
export const COMPACT_AT = 0.75;
/** Messages kept verbatim after a summary (at least). */
export const KEEP_RECENT = 8;

/**
 * Where to cut: the last message id that may be summarised, leaving at least KEEP_RECENT
 * messages and never separating an assistant's tool calls from their results — the kept part
 * starts at a user or an assistant message, so a long run of tool turns (a sub-agent's, say,
 * with its one prompt) can be compacted too.
 */
export function cutPoint(stored: StoredMessage[]): number | null {
  for (let i = stored.length - KEEP_RECENT; i > 0; i--) {
    const role = stored[i].message.role;
    if (role === "user" || role === "assistant") return stored[i - 1].id;
  }
  return null;
}

/** One scope's view of its context: its messages, summary and cleared results, and how to build it. */
class ContextView {
  summary: ContextSummary | null;
  stored: StoredMessage[];
  stubs: Map<number, string>;

  constructor(private readonly deps: StepDeps) {
    this.summary = deps.summary.get();
    // Every message after the summary, paged through: the newest turns are always in the context.
    this.stored = deps.messages.list(this.summary?.upToId ?? 0);
    this.stubs = deps.cleared.stubs(this.summary?.upToId ?? 0);
  }

  build(): ChatMessage[] {
    const { settings, tools } = this.deps;
    return buildContext({
      stored: this.stored,
      summary: this.summary,
      stubs: this.stubs,
      instructions: settings.instructions,
      base: basePrompt(settings, tools.names()),
      timeZone: settings.prompt?.timeZone ?? null,
    });
  }

  /** The messages after the summary (what a summary could cover). */
  remaining(): StoredMessage[] {
    const s = this.summary;
    return this.stored.filter((m) => !s || m.id > s.upToId);
  }
}

/**
 * Clears, then summarises if it must; returns the context to send. Sizes are the whole request's:
 * the tools' definitions go with every request, so they count toward both thresholds.
 */
export async function contextFor(deps: StepDeps, runId: string): Promise<ChatMessage[]> {
  const view = new ContextView(deps);
  let context = view.build();
  const window = deps.settings.contextTokens * COMPACT_AT;
  const clearAt = deps.settings.clearAtTokens ?? 0;
  const toolTokens = estimateToolTokens(deps.tools.specs());
  const requestTokens = (messages: ChatMessage[]) => estimateTokens(messages) + toolTokens;
  const before = requestTokens(context);
  if (clearAt > 0 && before >= Math.min(clearAt, window)) {
    const cleared = await clearOldResults(deps, view.stored, view.stubs, before >= window);
    if (cleared) {
      for (const r of cleared.results) view.stubs.set(r.messageId, r.stub);
      context = view.build();
      const after = requestTokens(context);
      deps.emit(
        runId,
        ev.notice({
          kind: "context_cleared",
          cleared_results: cleared.results.length,
          tokens_before: before,
          tokens_after: after,
          message: `Cleared ${cleared.results.length} old tool results from the context (about ${before} → ${after} tokens); each is saved whole in the workspace.`,
        }),
      );
    }
  }
  if (requestTokens(context) < window) return context;
  return (await summarise(deps, runId, view)) ?? context;
}

/** Summarises the older turns (the last resort); returns the new context, or null when nothing can be cut. */
async function summarise(deps: StepDeps, runId: string, view: ContextView): Promise<ChatMessage[] | null> {
  const cut = cutPoint(view.remaining());
  if (cut === null) return null;
  const old = view
    .remaining()
    .filter((m) => m.id <= cut)
    .map((m) => {
      const stub = view.stubs.get(m.id);
      return stub !== undefined && m.message.role === "tool" ? { ...m.message, content: stub } : m.message;
    });
  const prompt: ChatMessage[] = [
    {
      role: "system",
      content:
        "Summarise the conversation below for your own later use: the user's goals, decisions, facts found, files and tabs involved, open questions. Be complete but brief.",
    },
    ...(view.summary ? [{ role: "user" as const, content: `Earlier summary:\n${view.summary.text}` }] : []),
    {
      role: "user",
      content: old
        .map(
          (m) =>
            `${m.role}: ${"content" in m ? (m.content ?? "") : ""}${m.role === "assistant" && m.tool_calls ? ` [tool calls: ${m.tool_calls.map((c) => `${c.function.name}(${c.function.arguments})`).join(", ")}]` : ""}`,
        )
        .join("\n\n"),
    },
  ];
  const turn = await deps.model.complete(
    { model: modelOf(deps, runId), messages: prompt, tools: [], signal: deps.signal },
    () => {},
  );
  view.summary = { upToId: cut, text: turn.text };
  deps.summary.set(view.summary);
  deps.ledger.addUsage(runId, turn.usage);
  deps.emit(
    runId,
    ev.notice({
      kind: "context_compacted",
      summarized_messages: old.length,
      message: `Summarised ${old.length} older messages to keep the context inside the model's window.`,
    }),
  );
  return view.build();
}
