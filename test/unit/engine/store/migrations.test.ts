import { describe, expect, it } from "vitest";
import {
  addColumn,
  columnsOf,
  type Migration,
  MigrationListError,
  migrate,
  migrationSteps,
  schemaVersion,
} from "../../../../durable-objects/engine/store/migrations";
import { memoryStorage } from "../../support/sql-storage";

const steps: Migration[] = [
  { version: 1, name: "notes", up: (sql) => sql.exec("CREATE TABLE notes (id TEXT PRIMARY KEY)") },
  {
    version: 2,
    name: "notes.body",
    up: (sql) => addColumn(sql, "notes", "body", "TEXT NOT NULL DEFAULT ''"),
  },
];

describe("versioned migrations", () => {
  it("runs every step of a new object in order and records each", () => {
    const storage = memoryStorage();
    expect(migrate(storage, steps)).toBe(2);
    expect([...columnsOf(storage.sql, "notes")]).toEqual(["id", "body"]);
    const rows = storage.sql
      .exec<{ version: number; name: string }>("SELECT version, name FROM _schema")
      .toArray();
    expect(rows.map((r) => [r.version, r.name])).toEqual([
      [1, "notes"],
      [2, "notes.body"],
    ]);
  });

  it("runs only the steps above the stored version, keeping the rows", () => {
    const storage = memoryStorage();
    migrate(storage, steps.slice(0, 1));
    storage.sql.exec("INSERT INTO notes (id) VALUES ('a')");
    expect(migrate(storage, steps)).toBe(2);
    expect(storage.sql.exec("SELECT id, body FROM notes").toArray()).toEqual([{ id: "a", body: "" }]);
    expect(migrate(storage, steps)).toBe(2);
  });

  it("leaves the object at the last good version when a step throws, and retries it on the next wake", () => {
    const storage = memoryStorage();
    const broken: Migration = {
      version: 2,
      name: "half",
      up(sql) {
        sql.exec("CREATE TABLE half (id TEXT)");
        throw new Error("disk on fire");
      },
    };
    expect(() => migrate(storage, [steps[0], broken])).toThrow("disk on fire");
    expect(schemaVersion(storage.sql)).toBe(1);
    expect(columnsOf(storage.sql, "half").size).toBe(0);
    expect(migrate(storage, steps)).toBe(2);
  });

  it("leaves an object stored by newer code alone", () => {
    const storage = memoryStorage();
    migrate(storage, steps);
    expect(migrate(storage, steps.slice(0, 1))).toBe(2);
  });

  it("refuses a step list with a gap or out of order", () => {
    expect(() => migrationSteps([steps[1]])).toThrow(MigrationListError);
    expect(() => migrationSteps([steps[0], steps[0]])).toThrow('Migration "notes" is version 1, expected 2.');
  });
});
