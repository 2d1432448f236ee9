/**
 * Where the conversation's state record lives: one SQLite row (as the Agents SDK keeps its
 * state), read whole on wake and rewritten whole on every change. Conversations stored before
 * the row existed are migrated once from their event log (snapshot + every delta after it).
 */

import type { EventLog } from "../store/event-log";
import { dropValue, ensureLargeValueTable, packValue, unpackValue } from "../store/large-values";
import { type ConversationRecord, emptyRecord, migrateRecord, recordFromEvents } from "./conversation-state";

interface StateRow extends Record<string, SqlStorageValue> {
  version: number;
  data: string;
}

/** Creates the conversation state table (and the large-value table it uses): the object's schema steps call it. */
export function createStateTables(sql: SqlStorage): void {
  ensureLargeValueTable(sql);
  sql.exec(`CREATE TABLE IF NOT EXISTS conversation_state (
    id INTEGER PRIMARY KEY CHECK (id = 1), version INTEGER NOT NULL, data TEXT NOT NULL, at INTEGER NOT NULL)`);
}

/** Reads and writes the one row of `conversation_state`. */
export class StateStore {
  constructor(private readonly sql: SqlStorage) {}

  /**
   * The stored record; a conversation without one is migrated from its event log (and the result
   * saved). A row that no longer parses is rebuilt from the log too, loudly, never reset to empty.
   */
  load(log: EventLog): ConversationRecord {
    const row = this.sql
      .exec<StateRow>("SELECT version, data FROM conversation_state WHERE id = 1")
      .toArray()[0];
    if (row) {
      const record = migrateRecord(unpackValue(this.sql, row.data));
      if (record) return record;
      console.error(
        `conversation_state: a version ${row.version} row did not parse; rebuilding it from the event log`,
      );
    }
    if (log.lastSeq() === 0) return emptyRecord();
    const snapshot = log.lastOfType("STATE_SNAPSHOT");
    const record = recordFromEvents(snapshot, log.scan(snapshot?.seq ?? 0, ["STATE_DELTA"]));
    this.save(record);
    return record;
  }

  /** Replaces the stored record. */
  save(record: ConversationRecord): void {
    const old = this.sql.exec<StateRow>("SELECT data FROM conversation_state WHERE id = 1").toArray()[0];
    if (old) dropValue(this.sql, old.data);
    this.sql.exec(
      "INSERT OR REPLACE INTO conversation_state (id, version, data, at) VALUES (1, ?, ?, ?)",
      record.version,
      packValue(this.sql, record),
      Date.now(),
    );
  }
}
