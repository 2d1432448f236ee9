/**
 * Builds the messages a model request carries, in fixed stages: the stable prefix (our prompt and
 * the conversation's instructions: no date, the same bytes all run long) → the summary of
 * summarised turns, if any → the history, where each run's first message is preceded by a note of
 * when it was sent and every cleared tool result is its stub → the newest turn. Nothing before the
 * newest messages changes from one request to the next except at a clearing or a summarising
 * step, so the provider's prompt cache serves the whole prefix.
 */
import type { ChatMessage } from "../model/model-types";
import type { StoredMessage } from "../store/message-store";
import type { ContextSummary, LoopSettings } from "./loop-deps";
import { agentSystemPrompt, dateNote, subAgentSystemPrompt } from "./system-prompt";

/** A rough token estimate: four characters a token. */
export function estimateTokens(messages: ChatMessage[]): number {
  let chars = 0;
  for (const m of messages) chars += JSON.stringify(m).length;
  return Math.ceil(chars / 4);
}

/** Our own prompt for a scope (system-prompt.ts): the agent's, or a sub-agent's shorter one. */
export function basePrompt(settings: LoopSettings, toolNames: readonly string[]): string {
  const p = settings.prompt;
  const ctx = { tools: toolNames, unattended: p?.unattended };
  return p?.role === "sub_agent" ? subAgentSystemPrompt(ctx) : agentSystemPrompt(ctx);
}

/** The system prompt: ours, then the conversation's instructions. */
export function systemPrompt(base: string, instructions: string | null): ChatMessage {
  return { role: "system", content: instructions ? `${base}\n\n${instructions}` : base };
}

/** What one scope's context is built from. */
export interface ContextParts {
  /** The scope's messages after the summary (older ones are skipped anyway). */
  stored: StoredMessage[];
  summary: ContextSummary | null;
  instructions: string | null;
  /** Our own prompt ({@link basePrompt}). */
  base: string;
  /** Stubs of cleared tool results, by message id. */
  stubs: ReadonlyMap<number, string>;
  /** The zone the date notes are written in (null: UTC only). */
  timeZone: string | null;
}

/** The messages the model sees: system prompt, summary of old turns, then the history as it stands. */
export function buildContext(parts: ContextParts): ChatMessage[] {
  const { stored, summary, stubs } = parts;
  const out: ChatMessage[] = [systemPrompt(parts.base, parts.instructions)];
  if (summary) out.push({ role: "system", content: `Summary of the earlier conversation:\n${summary.text}` });
  let datedRun: string | null | undefined;
  for (const m of stored) {
    if (summary && m.id <= summary.upToId) continue;
    if (m.message.role === "user" && (datedRun === undefined || m.run_id !== datedRun)) {
      datedRun = m.run_id;
      out.push({ role: "system", content: dateNote(m.at, parts.timeZone) });
    }
    const stub = m.message.role === "tool" ? stubs.get(m.id) : undefined;
    out.push(stub === undefined ? m.message : { ...m.message, content: stub });
  }
  return out;
}
