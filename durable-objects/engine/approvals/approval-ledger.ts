/**
 * Decided approvals in SQLite: what a person (or a timeout, or an unattended run) decided for a
 * tool call, with edited arguments. Pending approvals live in the conversation's state; once
 * decided they move here, which is how a second decision is told apart from an unknown id (409
 * vs 404) and how the tool step finds the arguments an approved call runs with.
 */
import type { ApprovalResolver } from "../../../schemas/approvals";

/** One decided approval. */
export interface ApprovalDecision {
  approval_id: string;
  run_id: string;
  tool_call_id: string;
  tool_name: string;
  decision: "approve" | "deny";
  reason: string | null;
  /** The arguments the approved call runs with, when the person edited them (JSON text). */
  arguments: string | null;
  resolved_by: ApprovalResolver;
  resolved_at: number;
}

interface Row extends Record<string, SqlStorageValue> {
  approval_id: string;
  run_id: string;
  tool_call_id: string;
  tool_name: string;
  decision: string;
  reason: string | null;
  arguments: string | null;
  resolved_by: string;
  resolved_at: number;
}

/** Creates the approval decisions table: the object's schema steps call it. */
export function createApprovalTables(sql: SqlStorage): void {
  sql.exec(`CREATE TABLE IF NOT EXISTS approval_decisions (
    approval_id TEXT PRIMARY KEY, run_id TEXT NOT NULL, tool_call_id TEXT NOT NULL, tool_name TEXT NOT NULL,
    decision TEXT NOT NULL, reason TEXT, arguments TEXT, resolved_by TEXT NOT NULL, resolved_at INTEGER NOT NULL)`);
  sql.exec("CREATE INDEX IF NOT EXISTS approval_decisions_call ON approval_decisions (tool_call_id)");
}

/** The `approval_decisions` table. */
export class ApprovalLedger {
  constructor(private readonly sql: SqlStorage) {}

  /** Records a decision (once: a second one for the same approval is ignored). */
  record(d: ApprovalDecision): void {
    this.sql.exec(
      `INSERT OR IGNORE INTO approval_decisions
        (approval_id, run_id, tool_call_id, tool_name, decision, reason, arguments, resolved_by, resolved_at)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      d.approval_id,
      d.run_id,
      d.tool_call_id,
      d.tool_name,
      d.decision,
      d.reason,
      d.arguments,
      d.resolved_by,
      d.resolved_at,
    );
  }

  /** The decision on an approval, or null when it was never decided. */
  get(approvalId: string): ApprovalDecision | null {
    const row = this.sql
      .exec<Row>("SELECT * FROM approval_decisions WHERE approval_id = ?", approvalId)
      .toArray()[0];
    return row ? toDecision(row) : null;
  }

  /** The latest decision on a tool call of a run, or null. */
  forCall(runId: string, toolCallId: string): ApprovalDecision | null {
    const row = this.sql
      .exec<Row>(
        "SELECT * FROM approval_decisions WHERE tool_call_id = ? AND run_id = ? ORDER BY resolved_at DESC LIMIT 1",
        toolCallId,
        runId,
      )
      .toArray()[0];
    return row ? toDecision(row) : null;
  }
}

function toDecision(r: Row): ApprovalDecision {
  return {
    approval_id: r.approval_id,
    run_id: r.run_id,
    tool_call_id: r.tool_call_id,
    tool_name: r.tool_name,
    decision: r.decision === "approve" ? "approve" : "deny",
    reason: r.reason,
    arguments: r.arguments,
    resolved_by: r.resolved_by as ApprovalResolver,
    resolved_at: r.resolved_at,
  };
}
