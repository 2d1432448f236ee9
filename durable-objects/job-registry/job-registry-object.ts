/**
 * The list of every job, split over JOB_REGISTRY_SHARDS Durable Objects by a hash of the job's
 * address, so no one object takes every job creation of every workspace. The Cron Trigger walks
 * every shard (and drains the single list used before the split) to re-arm any job that lost its
 * alarm. Listing jobs for people goes through the workspace. Concerns: one shard's job addresses.
 */
import { DurableObject } from "cloudflare:workers";
import { legacyJobRegistry, registryShard } from "../addresses/job-registry";
import { migrate, migrationSteps } from "../engine/store/migrations";
import { shardOf } from "./shards";

/** Every step of a registry shard's SQLite, oldest first (docs/architecture-storage.md). */
export const JOB_REGISTRY_MIGRATIONS = migrationSteps([
  {
    version: 1,
    name: "baseline",
    up: (sql) =>
      sql.exec(`CREATE TABLE IF NOT EXISTS jobs (workspace_id TEXT NOT NULL, job_id TEXT NOT NULL,
        PRIMARY KEY (workspace_id, job_id))`),
  },
]);

/** A job's address. */
export interface JobAddress {
  workspace_id: string;
  job_id: string;
}

/** The Durable Object holding one shard of the job list. */
export class JobRegistry extends DurableObject<Env> {
  private readonly sql: SqlStorage;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.sql = ctx.storage.sql;
    migrate(ctx.storage, JOB_REGISTRY_MIGRATIONS);
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

export { legacyJobRegistry, registryShard } from "../addresses/job-registry";

/** Lists a new job in its shard. */
export async function registerJob(env: Env, workspaceId: string, jobId: string): Promise<void> {
  await registryShard(env, shardOf(workspaceId, jobId)).add(workspaceId, jobId);
}

/**
 * Takes a deleted job off the registry: its shard, and the pre-shard list in case the job was
 * created before the split and not yet drained (a job deletion, never a hot path).
 */
export async function unregisterJob(env: Env, workspaceId: string, jobId: string): Promise<void> {
  await Promise.all([
    registryShard(env, shardOf(workspaceId, jobId)).remove(workspaceId, jobId),
    legacyJobRegistry(env).remove(workspaceId, jobId),
  ]);
}
