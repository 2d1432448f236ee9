/**
 * The conversation's live state — task list, pending question, browser tabs, pending approvals — as one typed,
 * versioned record. It is held in memory, saved whole (one SQLite row, see `state-store.ts`) in
 * the same synchronous step that appends the STATE_DELTA event announcing the change, and read
 * whole when the object wakes. The event log is history, never the source of this state.
 *
 * Adding a field (pending approvals, hand-offs, …): add it to {@link ConversationRecord} with a
 * `.default(…)` so rows saved before it still parse, give it a setter below that goes through
 * {@link StateHolder.set}, and bump {@link CONVERSATION_STATE_VERSION} only when the meaning of
 * an existing field changes (then add a step to `migrateRecord`).
 */
import type { JsonPatchOperation } from "@ag-ui/core";
import { z } from "zod";
import { PendingApproval } from "../../../schemas/approvals";
import {
  BrowserTab,
  type ConversationState,
  type LoggedEvent,
  PendingQuestion,
  PendingTakeover,
  Task,
} from "../../../schemas/events";

/** Version of the stored record's shape. */
export const CONVERSATION_STATE_VERSION = 1;

/** The conversation's state as stored: what STATE_SNAPSHOT publishes, plus bookkeeping. */
export const ConversationRecord = z.object({
  version: z.literal(CONVERSATION_STATE_VERSION),
  /** The in-memory working list of the task tools; checkpointed only so a woken run carries on. */
  tasks: z.array(Task).default([]),
  pending_question: PendingQuestion.nullable().default(null),
  tabs: z.array(BrowserTab).default([]),
  /** A `request_takeover` the run waits for: the person drives the tab, then says done. */
  pending_takeover: PendingTakeover.nullable().default(null),
  /** Tool calls held for a person's decision (see engine/approvals). */
  pending_approvals: z.array(PendingApproval).default([]),
  /** The id the next created task gets (ids are never reused within a conversation). */
  next_task_id: z.number().int().positive().default(1),
});
export type ConversationRecord = z.infer<typeof ConversationRecord>;

/** The record of a conversation that has no state yet. */
export function emptyRecord(): ConversationRecord {
  return ConversationRecord.parse({ version: CONVERSATION_STATE_VERSION });
}

/** Parses a stored record of any known version into the current shape; null when it is not one. */
export function migrateRecord(stored: unknown): ConversationRecord | null {
  const parsed = ConversationRecord.safeParse(stored);
  return parsed.success ? parsed.data : null;
}

/**
 * The state of a conversation stored before the record existed (version 0): its last
 * STATE_SNAPSHOT with every STATE_DELTA after it applied, in order — all of them, not a page.
 */
export function recordFromEvents(
  snapshot: LoggedEvent | null,
  deltas: Iterable<LoggedEvent>,
): ConversationRecord {
  const state: Record<string, unknown> =
    snapshot?.event.type === "STATE_SNAPSHOT"
      ? structuredClone(snapshot.event.snapshot as Record<string, unknown>)
      : {};
  for (const d of deltas) {
    if (d.event.type !== "STATE_DELTA") continue;
    for (const op of d.event.delta as JsonPatchOperation[]) {
      if (op.op !== "replace" && op.op !== "add") continue;
      state[op.path.slice(1)] = structuredClone(op.value);
    }
  }
  const tasks = z.array(Task).catch([]).parse(state.tasks);
  return ConversationRecord.parse({
    version: CONVERSATION_STATE_VERSION,
    tasks,
    pending_question: PendingQuestion.nullable()
      .catch(null)
      .parse(state.pending_question ?? null),
    tabs: z
      .array(BrowserTab)
      .catch([])
      .parse(state.tabs ?? []),
    pending_takeover: PendingTakeover.nullable()
      .catch(null)
      .parse(state.pending_takeover ?? null),
    next_task_id: tasks.reduce((max, t) => Math.max(max, Number(t.id) + 1 || max), 1),
  });
}

/** Called on every change: save the record, then publish the delta (in one synchronous step). */
export type StateChange = (record: ConversationRecord, delta: JsonPatchOperation[]) => void;

/** Fields of the record that are published in STATE_SNAPSHOT / STATE_DELTA. */
type PublishedKey = keyof ConversationState;

/** In-memory conversation state; every change is handed to `onChange` whole. */
export class StateHolder {
  private record: ConversationRecord;

  constructor(
    initial: ConversationRecord,
    private readonly onChange: StateChange,
  ) {
    this.record = structuredClone(initial);
  }

  /** A copy of the whole stored record. */
  get current(): ConversationRecord {
    return structuredClone(this.record);
  }

  /** The published part of the state (what STATE_SNAPSHOT carries). */
  snapshot(): ConversationState {
    const { tasks, pending_question, tabs, pending_approvals, pending_takeover } = this.record;
    return structuredClone({ tasks, pending_question, tabs, pending_approvals, pending_takeover });
  }

  get pendingQuestion(): PendingQuestion | null {
    return this.record.pending_question;
  }

  setPendingQuestion(q: PendingQuestion | null): void {
    this.set("pending_question", q);
  }

  get pendingTakeover(): PendingTakeover | null {
    return this.record.pending_takeover;
  }

  setPendingTakeover(t: PendingTakeover | null): void {
    this.set("pending_takeover", t);
  }

  /** Tool calls waiting for a person's decision. */
  get pendingApprovals(): PendingApproval[] {
    return this.record.pending_approvals;
  }

  setPendingApprovals(list: PendingApproval[]): void {
    this.set("pending_approvals", list);
  }

  listTasks(): Task[] {
    return this.record.tasks;
  }

  getTask(id: string): Task | undefined {
    return this.record.tasks.find((t) => t.id === id);
  }

  createTask(subject: string, description?: string): Task {
    const now = Date.now();
    const id = this.record.next_task_id;
    const task: Task = {
      id: String(id),
      subject,
      description,
      status: "pending",
      created_at: now,
      updated_at: now,
    };
    this.record.next_task_id = id + 1;
    this.set("tasks", [...this.record.tasks, task]);
    return task;
  }

  updateTask(id: string, patch: Partial<Pick<Task, "subject" | "description" | "status">>): Task | undefined {
    const old = this.getTask(id);
    if (!old) return undefined;
    const task: Task = { ...old, updated_at: Date.now() };
    for (const [k, v] of Object.entries(patch)) if (v !== undefined) Object.assign(task, { [k]: v });
    this.set(
      "tasks",
      this.record.tasks.map((t) => (t.id === id ? task : t)),
    );
    return task;
  }

  deleteTask(id: string): boolean {
    const tasks = this.record.tasks.filter((t) => t.id !== id);
    if (tasks.length === this.record.tasks.length) return false;
    this.set("tasks", tasks);
    return true;
  }

  /** Replaces the browser tab list, publishing only real changes. */
  setTabs(tabs: BrowserTab[]): void {
    if (JSON.stringify(tabs) === JSON.stringify(this.record.tabs)) return;
    this.set("tabs", tabs);
  }

  /** Replaces one published field: the record is saved and the delta published together. */
  set<K extends PublishedKey>(key: K, value: ConversationRecord[K]): void {
    this.record = { ...this.record, [key]: structuredClone(value) };
    this.onChange(structuredClone(this.record), [
      { op: "replace", path: `/${key}`, value: structuredClone(value) },
    ]);
  }
}
