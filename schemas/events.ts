/**
 * The one event schema of Cirrus: AG-UI events (as published by @ag-ui/core) plus the
 * CUSTOM event payloads AG-UI lacks. The worker writes these, `web/` reads them.
 */
import {
  CustomEventSchema,
  RunErrorEventSchema,
  RunFinishedEventSchema,
  RunStartedEventSchema,
  StateDeltaEventSchema,
  StateSnapshotEventSchema,
  StepFinishedEventSchema,
  StepStartedEventSchema,
  TextMessageContentEventSchema,
  TextMessageEndEventSchema,
  TextMessageStartEventSchema,
  ToolCallArgsEventSchema,
  ToolCallEndEventSchema,
  ToolCallResultEventSchema,
  ToolCallStartEventSchema,
} from "@ag-ui/core/schemas";
import { z } from "zod";
import { PendingApproval } from "./approvals";

/** A workspace file a tool call wrote, downloadable by whoever may read the conversation. */
export const ToolResultFile = z.object({
  path: z.string().describe("The file's normalised path from the workspace root."),
});
export type ToolResultFile = z.infer<typeof ToolResultFile>;

/**
 * AG-UI's TOOL_CALL_RESULT plus `files`: the files this call wrote, decided by the server
 * (absent when it wrote none). AG-UI events are loose objects, so AG-UI clients ignore it.
 */
export const ToolCallResultEvent = ToolCallResultEventSchema.extend({
  files: z.array(ToolResultFile).optional().describe("Files this tool call wrote; absent when none."),
});
export type ToolCallResultEvent = z.infer<typeof ToolCallResultEvent>;

/** Every event Cirrus emits, discriminated on `type`. */
export const CirrusEvent = z.discriminatedUnion("type", [
  RunStartedEventSchema,
  RunFinishedEventSchema,
  RunErrorEventSchema,
  StepStartedEventSchema,
  StepFinishedEventSchema,
  TextMessageStartEventSchema,
  TextMessageContentEventSchema,
  TextMessageEndEventSchema,
  ToolCallStartEventSchema,
  ToolCallArgsEventSchema,
  ToolCallEndEventSchema,
  ToolCallResultEvent,
  StateSnapshotEventSchema,
  StateDeltaEventSchema,
  CustomEventSchema,
]);
export type CirrusEvent = z.infer<typeof CirrusEvent>;

/** An event as stored and streamed: its position in the conversation's log and its run. */
export const LoggedEvent = z.object({
  seq: z.number().int().positive().describe("Position in the conversation's event log; the SSE `id`."),
  run_id: z.string().nullable().describe("The run that produced the event, if any."),
  event: CirrusEvent,
});
export type LoggedEvent = z.infer<typeof LoggedEvent>;

/** A pending `ask_user` question, as shown in state and in the `ask_user` CUSTOM event. */
export const PendingQuestion = z.object({
  question_id: z.string(),
  question: z.string(),
  options: z.array(z.string()).optional(),
  multiple: z.boolean(),
  asked_at: z.number().describe("Epoch milliseconds."),
  expires_at: z.number().describe("Epoch milliseconds; after this the tool returns a timeout."),
});
export type PendingQuestion = z.infer<typeof PendingQuestion>;

/** A pending `request_takeover`: the person is asked to use the tab's live view, then say done. */
export const PendingTakeover = z.object({
  takeover_id: z.string().describe("Pass to `POST /v1/conversations/{id}/takeover/{takeover_id}/done`."),
  tab_id: z.number().int().describe("The tab to take over (its live view: `…/tabs/{tab_id}/live`)."),
  reason: z.string().describe("What the agent needs the person to do, e.g. sign in."),
  requested_at: z.number().describe("Epoch milliseconds."),
  expires_at: z.number().describe("Epoch milliseconds; after this the tool returns a timeout."),
});
export type PendingTakeover = z.infer<typeof PendingTakeover>;

/** A task of the conversation's in-memory task list. */
export const Task = z.object({
  id: z.string(),
  subject: z.string(),
  description: z.string().optional(),
  status: z.enum(["pending", "in_progress", "completed"]),
  created_at: z.number(),
  updated_at: z.number(),
});
export type Task = z.infer<typeof Task>;

/** A remote-browser tab as the conversation's state shows it. */
export const BrowserTab = z.object({
  id: z.number().int().describe("Small stable tab id within the conversation."),
  window_id: z.number().int().describe("The window the tab belongs to."),
  url: z.string(),
  title: z.string(),
  active: z.boolean().describe("Whether this is its window's one active tab."),
});
export type BrowserTab = z.infer<typeof BrowserTab>;

/** The shared state carried by STATE_SNAPSHOT / STATE_DELTA events. */
export const ConversationState = z.object({
  tasks: z.array(Task),
  pending_question: PendingQuestion.nullable(),
  /** The conversation's browser tabs (absent in states saved before the browser existed). */
  tabs: z.array(BrowserTab).optional(),
  /** A take-over the run waits for (absent in states saved before take-overs existed). */
  pending_takeover: PendingTakeover.nullable().optional(),
  /** Tool calls waiting for a person's decision (absent in states saved before approvals existed). */
  pending_approvals: z.array(PendingApproval).optional(),
});
export type ConversationState = z.infer<typeof ConversationState>;

/** Names of the CUSTOM events Cirrus emits. */
export const CustomEventName = z.enum([
  "ask_user",
  "ask_user_resolved",
  "takeover_requested",
  "takeover_resolved",
  "approval_requested",
  "approval_resolved",
  "sub_agent_event",
  "notice",
  "browser_queued",
  "citations_checked",
  "outcome_graded",
  "file_downloaded",
  "model_fallback",
]);
export type CustomEventName = z.infer<typeof CustomEventName>;

/** The CUSTOM `model_fallback` event: a run moved on to its next model (durable-objects/engine/model/fallback.ts). */
export const ModelFallback = z.object({
  from: z.string().describe("The model that failed; the run no longer uses it."),
  to: z.string().describe("The model that gets the same request, and the rest of the run."),
  reason: z
    .string()
    .describe("The failure's code: `model_unavailable`, `model_rate_limited`, `model_unreachable`, …"),
  message: z.string().describe("The failure, in words."),
});
export type ModelFallback = z.infer<typeof ModelFallback>;

/** A CUSTOM `context_cleared` notice: old tool results were cleared from the model's context. */
export const ContextClearedNotice = z.object({
  kind: z.literal("context_cleared"),
  cleared_results: z.number().int().describe("Tool results replaced by a stub in this step."),
  tokens_before: z.number().int().describe("The request's estimated tokens before the step."),
  tokens_after: z.number().int().describe("The request's estimated tokens after it."),
  message: z.string().describe("The same, in words."),
});
export type ContextClearedNotice = z.infer<typeof ContextClearedNotice>;

/** A CUSTOM `context_compacted` notice: older turns were summarised to stay inside the window. */
export const ContextCompactedNotice = z.object({
  kind: z.literal("context_compacted"),
  summarized_messages: z.number().int().describe("Messages the summary now stands in for."),
  message: z.string().optional().describe("The same, in words (absent in notices stored before it)."),
});
export type ContextCompactedNotice = z.infer<typeof ContextCompactedNotice>;

/**
 * The value of a CUSTOM `notice` event, discriminated on `kind`: what a person watching a run may
 * want to know. Clients show `message` when there is one.
 */
export const Notice = z.discriminatedUnion("kind", [
  ContextClearedNotice,
  ContextCompactedNotice,
  z.object({ kind: z.literal("model_retry"), attempt: z.number().int(), reason: z.string() }),
  z.object({ kind: z.literal("run_resumed"), message: z.string() }),
  z.object({
    kind: z.literal("mcp_server_unavailable"),
    server: z.string(),
    code: z.string(),
    message: z.string(),
  }),
]);
export type Notice = z.infer<typeof Notice>;

/** Events after which a run's own stream ends. */
export const TERMINAL_EVENT_TYPES: ReadonlySet<string> = new Set(["RUN_FINISHED", "RUN_ERROR"]);
