/** The workspace's HTTP tools (endpoints the agent may call), one JSON row per tool name. */
import type { StoredHttpTool } from "../../schemas/http-tools";

/** Creates the HTTP tools table: the object's schema steps call it. */
export function createHttpToolTable(sql: SqlStorage): void {
  sql.exec("CREATE TABLE IF NOT EXISTS http_tools (name TEXT PRIMARY KEY, data TEXT NOT NULL)");
}

/** The HTTP tool table of one workspace. */
export class HttpToolStore {
  constructor(private readonly sql: SqlStorage) {}

  /** Registers (or replaces) a tool. */
  put(tool: StoredHttpTool): void {
    this.sql.exec(
      "INSERT OR REPLACE INTO http_tools (name, data) VALUES (?, ?)",
      tool.name,
      JSON.stringify(tool),
    );
  }

  /** Every tool by name, secrets included (for building tools; never returned by the API). */
  list(): StoredHttpTool[] {
    return this.sql
      .exec<{ data: string }>("SELECT data FROM http_tools ORDER BY name")
      .toArray()
      .map((r) => JSON.parse(r.data) as StoredHttpTool);
  }

  delete(name: string): boolean {
    return this.sql.exec("DELETE FROM http_tools WHERE name = ?", name).rowsWritten > 0;
  }
}
