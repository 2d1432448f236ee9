/** The workspace's HTTP tools (endpoints the agent may call), one JSON row per tool name. */
import type { StoredHttpTool } from "../../schemas/http-tools";
import { fail, ok, type RpcResult } from "../engine/rpc-result";

/** HTTP tools one workspace may hold (every run of the workspace loads them all). */
export const MAX_HTTP_TOOLS = 500;

/** Creates the HTTP tools table: the object's schema steps call it. */
export function createHttpToolTable(sql: SqlStorage): void {
  sql.exec("CREATE TABLE IF NOT EXISTS http_tools (name TEXT PRIMARY KEY, data TEXT NOT NULL)");
}

/** The HTTP tool table of one workspace. */
export class HttpToolStore {
  constructor(private readonly sql: SqlStorage) {}

  /** Registers (or replaces) a tool; 409 when it would be one more than {@link MAX_HTTP_TOOLS}. */
  put(tool: StoredHttpTool): RpcResult<null> {
    const exists = this.sql.exec("SELECT 1 FROM http_tools WHERE name = ?", tool.name).toArray().length > 0;
    const count = this.sql.exec<{ n: number }>("SELECT COUNT(*) AS n FROM http_tools").one().n;
    if (!exists && count >= MAX_HTTP_TOOLS)
      return fail(
        409,
        "too_many_tools",
        `A workspace holds at most ${MAX_HTTP_TOOLS} HTTP tools; delete one (DELETE /v1/tools/{name}) before registering another.`,
      );
    this.sql.exec(
      "INSERT OR REPLACE INTO http_tools (name, data) VALUES (?, ?)",
      tool.name,
      JSON.stringify(tool),
    );
    return ok(null);
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
