/**
 * Keeps the model's context inside its window: when the conversation nears the limit, the
 * older turns are summarised by the model and the summary stands in for them.
 */

import type { ChatMessage } from "../model/model-types";
import type { StoredMessage } from "../store/message-store";
import { ev } from "./event-builders";
import type { ContextSummary, LoopSettings, StepDeps } from "./loop-deps";
import { agentSystemPrompt, subAgentSystemPrompt } from "./system-prompt";

/** Summarise once the estimated context passes this share of the window. */
export const COMPACT_AT = 0.75;
/** Messages kept verbatim after a summary (at least). */
export const KEEP_RECENT = 8;

/** A rough token estimate: four characters a token. */
export function estimateTokens(messages: ChatMessage[]): number {
  let chars = 0;
  for (const m of messages) chars += JSON.stringify(m).length;
  return Math.ceil(chars / 4);
}

/** Our own prompt for a scope (system-prompt.ts): the agent's, or a sub-agent's shorter one. */
export function basePrompt(settings: LoopSettings, toolNames: readonly string[]): string {
  const p = settings.prompt;
  const ctx = {
    now: new Date(p?.now ?? Date.now()),
    timeZone: p?.timeZone ?? null,
    tools: toolNames,
    unattended: p?.unattended,
  };
  return p?.role === "sub_agent" ? subAgentSystemPrompt(ctx) : agentSystemPrompt(ctx);
}

/** The system prompt: ours, then the conversation's instructions. */
export function systemPrompt(base: string, instructions: string | null): ChatMessage {
  return { role: "system", content: instructions ? `${base}\n\n${instructions}` : base };
}

/** The messages the model sees: system prompt, summary of old turns, then the rest. */
export function buildContext(
  stored: StoredMessage[],
  summary: ContextSummary | null,
  instructions: string | null,
  base: string,
): ChatMessage[] {
  const out: ChatMessage[] = [systemPrompt(base, instructions)];
  if (summary) out.push({ role: "system", content: `Summary of the earlier conversation:\n${summary.text}` });
  for (const m of stored) if (!summary || m.id > summary.upToId) out.push(m.message);
  return out;
}

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

/** Summarises old turns when the context nears the window; returns the context to send. */
export async function contextFor(deps: StepDeps, runId: string): Promise<ChatMessage[]> {
  let summary = deps.summary.get();
  // Every message after the summary, paged through: the newest turns are always in the context.
  const stored = deps.messages.list(summary?.upToId ?? 0);
  const context = buildContext(
    stored,
    summary,
    deps.settings.instructions,
    basePrompt(deps.settings, deps.tools.names()),
  );
  if (estimateTokens(context) < deps.settings.contextTokens * COMPACT_AT) return context;
  const remaining = stored.filter((m) => !summary || m.id > summary.upToId);
  const cut = cutPoint(remaining);
  if (cut === null) return context;
  const old = remaining.filter((m) => m.id <= cut).map((m) => m.message);
  const prompt: ChatMessage[] = [
    {
      role: "system",
      content:
        "Summarise the conversation below for your own later use: the user's goals, decisions, facts found, files and tabs involved, open questions. Be complete but brief.",
    },
    ...(summary ? [{ role: "user" as const, content: `Earlier summary:\n${summary.text}` }] : []),
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
    { model: deps.settings.model, messages: prompt, tools: [], signal: deps.signal },
    () => {},
  );
  summary = { upToId: cut, text: turn.text };
  deps.summary.set(summary);
  deps.ledger.addUsage(runId, turn.usage);
  deps.emit(runId, ev.custom("notice", { kind: "context_compacted", summarized_messages: old.length }));
  return buildContext(
    stored,
    summary,
    deps.settings.instructions,
    basePrompt(deps.settings, deps.tools.names()),
  );
}
