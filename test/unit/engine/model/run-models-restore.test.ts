/**
 * A run's fallback model found again after an eviction (conversation/run-models.ts): from its own
 * `model_fallback` event, and from one a sub-agent of the run emitted (forwarded as `sub_agent_event`).
 */
import { describe, expect, it } from "vitest";
import { CONVERSATION_MIGRATIONS } from "../../../../durable-objects/conversation/conversation-schema";
import { conversationRunModels } from "../../../../durable-objects/conversation/run-models";
import { ev } from "../../../../durable-objects/engine/loop/event-builders";
import { EventLog } from "../../../../durable-objects/engine/store/event-log";
import { migrate } from "../../../../durable-objects/engine/store/migrations";
import { RunStore } from "../../../../durable-objects/engine/store/run-store";
import { memoryStorage } from "../../support/sql-storage";

function conversation() {
  const storage = memoryStorage();
  migrate(storage, CONVERSATION_MIGRATIONS);
  const log = new EventLog(storage.sql);
  const runs = new RunStore(storage.sql);
  const runId = runs.enqueue("go", null).run.id;
  return { log, runs, runId };
}

const fallback = (from: string, to: string) =>
  ev.custom("model_fallback", { from, to, reason: "model_unavailable", message: "503" });

describe("a run's fallback model after an eviction", () => {
  it("is the last model_fallback of the run, its own or a sub-agent's", () => {
    const own = conversation();
    own.log.append(own.runId, fallback("a", "b"));
    expect(conversationRunModels(own).of(own.runId)).toBe("b");

    const sub = conversation();
    sub.log.append(sub.runId, fallback("a", "b"));
    const value = {
      sub_agent_id: "sa_1",
      label: "research",
      agent_type: "general",
      event: fallback("b", "c"),
    };
    sub.log.append(sub.runId, ev.custom("sub_agent_event", value));
    expect(conversationRunModels(sub).of(sub.runId)).toBe("c");
  });

  it("is none when the run never moved on", () => {
    const none = conversation();
    none.log.append(none.runId, ev.custom("notice", { kind: "model_retry", attempt: 2, reason: "retry" }));
    expect(conversationRunModels(none).of(none.runId)).toBeNull();
  });
});
