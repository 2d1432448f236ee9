/** Typed constructors for the events the loop emits, so call sites stay short and checked. */
import { EventType, type JsonPatchOperation, type TokenUsage } from "@ag-ui/core";
import type {
  CirrusEvent,
  ConversationState,
  CustomEventName,
  Notice,
  ToolResultFile,
} from "../../../schemas/events";
import type { Usage } from "../model/model-types";

/** AG-UI's usage record from ours, with the run's cost in dollars (`cost_usd`, null when unpriced). */
export function tokenUsage(
  model: string,
  u: Usage & { cost_usd?: number | null },
): TokenUsage & { cost_usd: number | null } {
  return {
    model,
    inputTokens: u.input_tokens,
    outputTokens: u.output_tokens,
    totalTokens: u.total_tokens,
    ...(u.cached_input_tokens ? { cachedInputTokens: u.cached_input_tokens } : {}),
    cost_usd: u.cost_usd ?? null,
  };
}

export const ev = {
  runStarted: (threadId: string, runId: string): CirrusEvent => ({
    type: EventType.RUN_STARTED,
    threadId,
    runId,
  }),
  runFinished: (
    threadId: string,
    runId: string,
    result: unknown,
    usage: TokenUsage,
    cancelled = false,
    extra: Record<string, unknown> = {},
  ): CirrusEvent => ({
    type: EventType.RUN_FINISHED,
    threadId,
    runId,
    result,
    usage: [usage],
    outcome: cancelled ? { type: "cancelled" } : { type: "success" },
    ...extra,
  }),
  runError: (
    threadId: string,
    runId: string,
    code: string,
    message: string,
    usage: TokenUsage,
  ): CirrusEvent =>
    ({ type: EventType.RUN_ERROR, code, message, usage: [usage], threadId, runId }) as CirrusEvent,
  stepStarted: (stepName: string): CirrusEvent => ({ type: EventType.STEP_STARTED, stepName }),
  stepFinished: (stepName: string): CirrusEvent => ({ type: EventType.STEP_FINISHED, stepName }),
  textStart: (messageId: string, role: "assistant" | "user"): CirrusEvent => ({
    type: EventType.TEXT_MESSAGE_START,
    messageId,
    role,
  }),
  textContent: (messageId: string, delta: string): CirrusEvent => ({
    type: EventType.TEXT_MESSAGE_CONTENT,
    messageId,
    delta,
  }),
  textEnd: (messageId: string): CirrusEvent => ({ type: EventType.TEXT_MESSAGE_END, messageId }),
  toolStart: (toolCallId: string, toolCallName: string, parentMessageId?: string): CirrusEvent => ({
    type: EventType.TOOL_CALL_START,
    toolCallId,
    toolCallName,
    parentMessageId,
  }),
  toolArgs: (toolCallId: string, delta: string): CirrusEvent => ({
    type: EventType.TOOL_CALL_ARGS,
    toolCallId,
    delta,
  }),
  toolEnd: (toolCallId: string): CirrusEvent => ({ type: EventType.TOOL_CALL_END, toolCallId }),
  toolResult: (
    toolCallId: string,
    content: string,
    isError: boolean,
    files: ToolResultFile[] = [],
  ): CirrusEvent =>
    ({
      type: EventType.TOOL_CALL_RESULT,
      messageId: `result_${toolCallId}`,
      toolCallId,
      content,
      role: "tool",
      metadata: isError ? { is_error: true } : undefined,
      ...(files.length ? { files } : {}),
    }) as CirrusEvent,
  stateSnapshot: (snapshot: ConversationState): CirrusEvent => ({ type: EventType.STATE_SNAPSHOT, snapshot }),
  stateDelta: (delta: JsonPatchOperation[]): CirrusEvent => ({ type: EventType.STATE_DELTA, delta }),
  custom: (name: CustomEventName, value: unknown): CirrusEvent => ({ type: EventType.CUSTOM, name, value }),
  /** A CUSTOM `notice` (schemas/events.ts `Notice`). */
  notice: (value: Notice): CirrusEvent => ({ type: EventType.CUSTOM, name: "notice", value }),
};
