/** Turns stored conversation records into the API's views. */
import {
  type ChatMessageView,
  type ConversationDetails,
  DETAILS_MESSAGE_LIMIT,
  type RunView,
} from "../../schemas/api";
import type { MessageList, MessagePageQuery } from "../../schemas/message-pages";
import type { Approvals } from "../engine/approvals/approvals";
import type { StateHolder } from "../engine/loop/conversation-state";
import type { EventLog } from "../engine/store/event-log";
import type { MessageStore, StoredMessage } from "../engine/store/message-store";
import type { Run, RunStore } from "../engine/store/run-store";
import { type ConversationInfo, type LiveFields, publicInfo } from "./conversation-meta";

/** One page of the conversation's messages: `limit` after (asc) or before (desc) the cursor's id. */
export function messagePage(messages: MessageStore, q: MessagePageQuery): MessageList {
  const cursor = q.cursor === undefined ? null : Number(q.cursor);
  // One row more than asked tells whether another page follows.
  const rows =
    q.order === "asc"
      ? messages.page(cursor ?? 0, q.limit + 1)
      : messages.pageBefore(cursor ?? Number.MAX_SAFE_INTEGER, q.limit + 1);
  const data = rows.slice(0, q.limit);
  const hasMore = rows.length > q.limit;
  return {
    data: data.map(messageView),
    has_more: hasMore,
    next_cursor: hasMore ? String(data.at(-1)!.id) : null,
    total: messages.count(),
  };
}

/** The conversation's stores a view reads. */
export interface ViewParts {
  runs: RunStore;
  log: EventLog;
  messages: MessageStore;
  state: StateHolder;
  approvals: Approvals;
}

/** The conversation's status: its active run's, else running while a run is queued, else idle. */
export function conversationStatus(runs: RunStore): ConversationDetails["status"] {
  const active = runs.active();
  if (active?.status === "waiting_for_user" || active?.status === "waiting_for_approval")
    return active.status;
  if (active) return "running";
  return runs.nextQueued() ? "running" : "idle";
}

/** The live fields of the conversation's view: status and last activity. */
export function liveFields(p: Pick<ViewParts, "runs" | "log">, info: ConversationInfo): LiveFields {
  return { status: conversationStatus(p.runs), last_activity_at: p.log.lastAt() ?? info.created_at };
}

/** Everything `GET /v1/conversations/{id}` shows. */
export function conversationDetails(p: ViewParts, info: ConversationInfo): ConversationDetails {
  const active = p.runs.active();
  const state = p.state.snapshot();
  return {
    ...publicInfo(info, liveFields(p, info)),
    status: conversationStatus(p.runs),
    messages: p.messages.newest(DETAILS_MESSAGE_LIMIT).map(messageView),
    messages_total: p.messages.count(),
    tasks: state.tasks,
    pending_question: state.pending_question,
    pending_approvals: p.approvals.pending(),
    pending_takeover: state.pending_takeover ?? null,
    usage: p.runs.totalUsage(),
    current_run: active ? runView(active) : null,
    queued_runs: p.runs.queuedCount(),
  };
}

/** A stored message as the API shows it. */
export function messageView(m: StoredMessage): ChatMessageView {
  const msg = m.message;
  const base = { id: m.id, run_id: m.run_id, role: msg.role, created_at: m.at };
  if (msg.role === "assistant") {
    return {
      ...base,
      content: msg.content,
      ...(msg.tool_calls?.length
        ? {
            tool_calls: msg.tool_calls.map((c) => ({
              id: c.id,
              name: c.function.name,
              arguments: c.function.arguments,
            })),
          }
        : {}),
    };
  }
  if (msg.role === "tool") return { ...base, content: msg.content, tool_call_id: msg.tool_call_id };
  return { ...base, content: msg.content };
}

/** A run as the API shows it. */
export function runView(r: Run): RunView {
  return {
    id: r.id,
    status: r.status,
    created_at: r.created_at,
    started_at: r.started_at,
    finished_at: r.finished_at,
    steps: r.steps,
    usage: r.usage,
    output: r.output,
    error: r.error,
  };
}
