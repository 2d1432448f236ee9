/**
 * A conversation past Durable Object SQLite's 2 MB per value (peers' users hit SQLITE_TOOBIG
 * once a long conversation's state passed it, agents #546): its messages, its events and a run's
 * answer bigger than one cell, whole after a restart.
 */
import { abortAllDurableObjects, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import {
  api,
  conversationObject,
  createConversation,
  modelRequests,
  readSse,
  script,
  uniqueKey,
  untilRunEnd,
} from "../helpers";

/** 1.5 MB of UTF-8 in the most characters a message may have (500,000). */
const bigMessage = (label: string) => label + "文".repeat(500_000 - label.length);
/** 2.2 MB of UTF-8: one answer bigger than a cell. */
const BIG_ANSWER = "é".repeat(1_100_000);
const bytes = (s: string) => new TextEncoder().encode(s).length;

/** Durable Object SQLite refuses a string or BLOB over 2 MB in production (SQLITE_TOOBIG); workerd locally does not. */
const CELL_LIMIT = 2 * 1024 * 1024;

/** Every cell of the conversation object's SQLite bigger than the production limit, as "table.column". */
function oversizedCells(id: string): Promise<string[]> {
  return runInDurableObject(conversationObject(id), (_obj, state) => {
    const sql = state.storage.sql;
    const tables = sql
      .exec<{ name: string }>(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%'",
      )
      .toArray();
    const over: string[] = [];
    for (const { name } of tables) {
      for (const { name: column } of sql.exec<{ name: string }>(`PRAGMA table_info("${name}")`).toArray()) {
        const { n } = sql
          .exec<{ n: number | null }>(`SELECT MAX(length(CAST("${column}" AS BLOB))) AS n FROM "${name}"`)
          .one();
        if ((n ?? 0) > CELL_LIMIT) over.push(`${name}.${column}`);
      }
    }
    return over;
  });
}

async function ask(id: string, content: string, idempotency_key?: string) {
  const res = await api(`/v1/conversations/${id}/messages`, {
    method: "POST",
    json: { content, stream: false, idempotency_key },
  });
  expect(res.status).toBe(200);
  return (await res.json()) as { run_id: string; status: string; output: unknown; error: unknown };
}

describe("a conversation past 2 MB", () => {
  it("keeps 1.5 MB messages and a 2.2 MB answer whole, also after a restart (agents #546)", async () => {
    const key = uniqueKey("past-2mb");
    await script(key, [{ text: "first noted" }, { text: BIG_ANSWER, chunks: 4 }, { text: "all read" }]);
    const id = await createConversation(key, { context_window: 10_000_000 });
    const first = bigMessage("one ");
    const second = bigMessage("two ");
    expect(bytes(BIG_ANSWER)).toBeGreaterThan(2 * 1024 * 1024);

    expect(await ask(id, first)).toMatchObject({ status: "succeeded", output: "first noted" });
    const big = await ask(id, second, "the-big-one");
    expect(big).toMatchObject({ status: "succeeded", error: null });
    expect(big.output).toBe(BIG_ANSWER);

    expect(await oversizedCells(id)).toEqual([]);
    await abortAllDurableObjects();

    expect(await ask(id, "what did I send?")).toMatchObject({ status: "succeeded", output: "all read" });
    const last = (await modelRequests(key)).at(-1)!;
    expect(last.messages.filter((m) => m.role !== "system").map((m) => m.content)).toEqual([
      first,
      "first noted",
      second,
      BIG_ANSWER,
      "what did I send?",
    ]);
    const messages = await api(`/v1/conversations/${id}/messages?limit=10`);
    const page = (await messages.json()) as { data: { content: string }[] };
    expect(page.data.map((m) => m.content)).toEqual([
      first,
      "first noted",
      second,
      BIG_ANSWER,
      "what did I send?",
      "all read",
    ]);
    // The run's output read back from storage: a retry of its message with the same idempotency key.
    const again = await ask(id, second, "the-big-one");
    expect(again).toMatchObject({ run_id: big.run_id, status: "succeeded" });
    expect(again.output).toBe(BIG_ANSWER);
    expect(await modelRequests(key)).toHaveLength(3);
    const events = await readSse(
      await api(`/v1/conversations/${id}/events`),
      (_m, all) => all.filter(untilRunEnd).length === 3,
      30_000,
    );
    expect(events.filter(untilRunEnd).map((e) => e.data.type)).toEqual(Array(3).fill("RUN_FINISHED"));
    expect(events.filter(untilRunEnd)[1].data.result).toBe(BIG_ANSWER);
  });
});
