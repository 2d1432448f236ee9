/**
 * The list of every job of every workspace, in one Durable Object: the Cron Trigger walks it
 * to re-arm any job that lost its alarm. Listing jobs for people goes through the workspace.
 */
import { DurableObject } from "cloudflare:workers";

/** The one registry instance's name. */
export const REGISTRY_NAME = "all-jobs";

/** A job's address. */
export interface JobAddress {
  workspace_id: string;
  job_id: string;
}

/** The Durable Object that knows every job. */
export class JobRegistry extends DurableObject<Env> {
  private readonly sql: SqlStorage;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.sql = ctx.storage.sql;
    this.sql.exec(`CREATE TABLE IF NOT EXISTS jobs (workspace_id TEXT NOT NULL, job_id TEXT NOT NULL,
      PRIMARY KEY (workspace_id, job_id))`);
  }

  add(workspaceId: string, jobId: string): void {
    this.sql.exec("INSERT OR IGNORE INTO jobs (workspace_id, job_id) VALUES (?, ?)", workspaceId, jobId);
  }

  remove(workspaceId: string, jobId: string): void {
    this.sql.exec("DELETE FROM jobs WHERE workspace_id = ? AND job_id = ?", workspaceId, jobId);
  }

  /** Jobs in a stable order, `limit` at a time after `after`. */
  page(after: JobAddress | null, limit: number): JobAddress[] {
    return this.sql
      .exec<{ workspace_id: string; job_id: string }>(
        "SELECT workspace_id, job_id FROM jobs WHERE (workspace_id, job_id) > (?, ?) ORDER BY workspace_id, job_id LIMIT ?",
        after?.workspace_id ?? "",
        after?.job_id ?? "",
        limit,
      )
      .toArray();
  }
}

/** The registry's stub. */
export function jobRegistry(env: Env): DurableObjectStub<JobRegistry> {
  const ns = env.JOB_REGISTRY as DurableObjectNamespace<JobRegistry>;
  return ns.get(ns.idFromName(REGISTRY_NAME));
}
