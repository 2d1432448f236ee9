import { readFileSync } from "node:fs";
import type { JsonPatchOperation } from "@ag-ui/core";
import { describe, expect, it } from "vitest";
import {
  CONVERSATION_STATE_VERSION,
  type ConversationRecord,
  emptyRecord,
  migrateRecord,
  recordFromEvents,
  StateHolder,
} from "../../../../durable-objects/engine/loop/conversation-state";
import type { LoggedEvent } from "../../../../schemas/events";

const fixture = (name: string) =>
  JSON.parse(readFileSync(new URL(`../../../fixtures/conversation-state/${name}`, import.meta.url), "utf8"));

/** A holder whose changes are recorded instead of stored. */
function holder(initial = emptyRecord()) {
  const changes: { record: ConversationRecord; delta: JsonPatchOperation[] }[] = [];
  const state = new StateHolder(initial, (record, delta) => changes.push({ record, delta }));
  return { state, changes };
}

describe("the conversation state record", () => {
  it("loads a saved version 1 row whole", () => {
    const record = migrateRecord(fixture("v1-row.json"));
    expect(record).toMatchObject({
      version: 1,
      tasks: [{ id: "2", subject: "read the report" }],
      pending_question: { question_id: "call_q" },
      tabs: [{ id: 1, url: "https://example.com/" }],
      next_task_id: 3,
    });
  });

  it("refuses a row that is not a record instead of resetting it to empty", () => {
    expect(migrateRecord({ version: 99, tasks: "nope" })).toBeNull();
    expect(migrateRecord(null)).toBeNull();
  });

  it("migrates a version 0 conversation from its snapshot and every delta after it", () => {
    const { snapshot, deltas } = fixture("v0-events.json") as {
      snapshot: LoggedEvent;
      deltas: LoggedEvent[];
    };
    const record = recordFromEvents(snapshot, deltas);
    expect(record.version).toBe(CONVERSATION_STATE_VERSION);
    expect(record.tasks.map((t) => t.subject)).toEqual(["old task", "newer task"]);
    expect(record.pending_question).toMatchObject({ question_id: "call_ask", options: ["yes", "no"] });
    expect(record.tabs).toEqual([]);
    expect(record.next_task_id).toBe(4);
  });

  it("hands every change to the store as the whole record together with its delta", () => {
    const { state, changes } = holder();
    const task = state.createTask("write it", "details");
    state.updateTask(task.id, { status: "in_progress" });
    expect(changes).toHaveLength(2);
    expect(changes[1].record.tasks).toMatchObject([{ id: "1", subject: "write it", status: "in_progress" }]);
    expect(changes[1].record.next_task_id).toBe(2);
    expect(changes[1].delta).toEqual([{ op: "replace", path: "/tasks", value: changes[1].record.tasks }]);
  });

  it("never reuses a task id, even after the newest task is deleted and the object wakes", () => {
    const { state, changes } = holder();
    state.createTask("a");
    state.createTask("b");
    expect(state.deleteTask("2")).toBe(true);
    const woken = holder(changes.at(-1)!.record).state;
    expect(woken.createTask("c").id).toBe("3");
    expect(woken.listTasks().map((t) => t.id)).toEqual(["1", "3"]);
  });

  it("publishes tab lists only when they change", () => {
    const { state, changes } = holder();
    const tabs = [{ id: 1, window_id: 1, url: "https://a.test/", title: "A", active: true }];
    state.setTabs(tabs);
    state.setTabs(structuredClone(tabs));
    expect(changes).toHaveLength(1);
    expect(state.snapshot()).toEqual({
      tasks: [],
      pending_question: null,
      tabs,
      pending_approvals: [],
      pending_takeover: null,
    });
  });

  it("keeps a pending take-over in the record, and reads rows saved before take-overs as none", () => {
    const { state, changes } = holder();
    const takeover = { takeover_id: "call_t", tab_id: 1, reason: "Sign in", requested_at: 1, expires_at: 2 };
    state.setPendingTakeover(takeover);
    expect(changes.at(-1)!.record.pending_takeover).toEqual(takeover);
    expect(changes.at(-1)!.delta).toEqual([{ op: "replace", path: "/pending_takeover", value: takeover }]);
    expect(holder(changes.at(-1)!.record).state.pendingTakeover).toEqual(takeover);
    const old = migrateRecord({ version: 1, tasks: [], pending_question: null, tabs: [], next_task_id: 1 });
    expect(old?.pending_takeover).toBeNull();
  });

  it("keeps the caller's objects out of the record", () => {
    const { state } = holder();
    const task = state.createTask("x");
    task.subject = "changed outside";
    const snap = state.snapshot();
    snap.tasks.push({ ...task, id: "9" });
    expect(state.listTasks()).toHaveLength(1);
    expect(state.listTasks()[0].subject).toBe("x");
  });
});

describe("pending approvals in the state record", () => {
  it("are saved with the record, published as a delta, and default to none in older rows", () => {
    const { state, changes } = holder();
    const approval = {
      approval_id: "appr_1",
      run_id: "run_1",
      tool_call_id: "call_1",
      tool_name: "shout",
      arguments: { text: "hi" },
      requested_at: 1,
      expires_at: 2,
    };
    state.setPendingApprovals([approval]);
    expect(state.pendingApprovals).toEqual([approval]);
    expect(changes.at(-1)).toEqual({
      record: expect.objectContaining({ pending_approvals: [approval] }),
      delta: [{ op: "replace", path: "/pending_approvals", value: [approval] }],
    });
    expect(migrateRecord({ version: 1, tasks: [] })?.pending_approvals).toEqual([]);
  });
});
