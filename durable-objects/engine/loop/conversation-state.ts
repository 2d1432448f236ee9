/**
 * The conversation's shared state (task list, pending question): held in memory, published as
 * STATE_SNAPSHOT / STATE_DELTA events, and rebuilt from those events when the object wakes.
 */
import type { JsonPatchOperation } from "@ag-ui/core";
import type { PendingApproval } from "../../../shared/approvals";
import type {
  BrowserTab,
  ConversationState,
  LoggedEvent,
  PendingQuestion,
  Task,
} from "../../../shared/events";

/** Publishes a state change as JSON Patch operations. */
export type StatePublisher = (delta: JsonPatchOperation[]) => void;

/** In-memory conversation state with change publication. */
export class StateHolder {
  private state: ConversationState = { tasks: [], pending_question: null, tabs: [], pending_approvals: [] };
  private nextTaskId = 1;

  constructor(private publish: StatePublisher) {}

  /** Rebuilds state from the last snapshot and the deltas after it. */
  restore(snapshot: LoggedEvent | null, deltas: LoggedEvent[]): void {
    if (snapshot?.event.type === "STATE_SNAPSHOT")
      this.state = structuredClone(snapshot.event.snapshot as ConversationState);
    for (const d of deltas) {
      if (d.event.type !== "STATE_DELTA") continue;
      for (const op of d.event.delta as JsonPatchOperation[]) {
        if (op.op !== "replace" && op.op !== "add") continue;
        const key = op.path.slice(1) as keyof ConversationState;
        (this.state as Record<string, unknown>)[key] = structuredClone(op.value);
      }
    }
    this.state.tasks ??= [];
    this.state.pending_question ??= null;
    this.state.tabs ??= [];
    this.state.pending_approvals ??= [];
    this.nextTaskId = this.state.tasks.reduce((max, t) => Math.max(max, Number(t.id) + 1), 1);
  }

  snapshot(): ConversationState {
    return structuredClone(this.state);
  }

  get pendingQuestion(): PendingQuestion | null {
    return this.state.pending_question;
  }

  setPendingQuestion(q: PendingQuestion | null): void {
    this.state.pending_question = q;
    this.publish([{ op: "replace", path: "/pending_question", value: q }]);
  }

  /** Tool calls waiting for a person's decision. */
  get pendingApprovals(): PendingApproval[] {
    return this.state.pending_approvals ?? [];
  }

  setPendingApprovals(list: PendingApproval[]): void {
    this.state.pending_approvals = structuredClone(list);
    this.publish([{ op: "replace", path: "/pending_approvals", value: structuredClone(list) }]);
  }

  listTasks(): Task[] {
    return this.state.tasks;
  }

  getTask(id: string): Task | undefined {
    return this.state.tasks.find((t) => t.id === id);
  }

  createTask(subject: string, description?: string): Task {
    const now = Date.now();
    const task: Task = {
      id: String(this.nextTaskId++),
      subject,
      description,
      status: "pending",
      created_at: now,
      updated_at: now,
    };
    this.state.tasks.push(task);
    this.publishTasks();
    return task;
  }

  updateTask(id: string, patch: Partial<Pick<Task, "subject" | "description" | "status">>): Task | undefined {
    const task = this.getTask(id);
    if (!task) return undefined;
    for (const [k, v] of Object.entries(patch)) if (v !== undefined) Object.assign(task, { [k]: v });
    task.updated_at = Date.now();
    this.publishTasks();
    return task;
  }

  deleteTask(id: string): boolean {
    const before = this.state.tasks.length;
    this.state.tasks = this.state.tasks.filter((t) => t.id !== id);
    if (this.state.tasks.length === before) return false;
    this.publishTasks();
    return true;
  }

  /** Replaces the browser tab list, publishing only real changes. */
  setTabs(tabs: BrowserTab[]): void {
    if (JSON.stringify(tabs) === JSON.stringify(this.state.tabs ?? [])) return;
    this.state.tabs = structuredClone(tabs);
    this.publish([{ op: "replace", path: "/tabs", value: structuredClone(tabs) }]);
  }

  private publishTasks(): void {
    this.publish([{ op: "replace", path: "/tasks", value: structuredClone(this.state.tasks) }]);
  }
}
