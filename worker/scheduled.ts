/**
 * The Cron Trigger's work: walk every shard of the job registry and make sure each job has its
 * alarm, after moving what the pre-shard registry still lists into the shards. `ensureArmed` is
 * idempotent and never runs anything itself, so a sweep that overlaps an alarm cannot start a run
 * twice.
 */

import { jobStub } from "../durable-objects/addresses/job";
import {
  type JobAddress,
  legacyJobRegistry,
  registryShard,
} from "../durable-objects/job-registry/job-registry-object";
import { JOB_REGISTRY_SHARDS, shardOf } from "../durable-objects/job-registry/shards";

/** Jobs read from a registry shard per page. */
const PAGE = 200;
/** Jobs asked at once within one shard. */
const CONCURRENCY = 20;
/** Shards walked at once. */
const SHARD_CONCURRENCY = 4;

/** What a sweep did: jobs checked, jobs that could not be reached, entries moved from the old list. */
export interface SweepResult {
  checked: number;
  failed: number;
  moved: number;
}

/** Re-arms every job of every shard. */
export async function rearmJobs(env: Env): Promise<SweepResult> {
  const moved = await drainLegacyRegistry(env);
  const shards = Array.from({ length: JOB_REGISTRY_SHARDS }, (_, n) => n);
  let checked = 0;
  let failed = 0;
  for (let i = 0; i < shards.length; i += SHARD_CONCURRENCY) {
    const results = await Promise.all(shards.slice(i, i + SHARD_CONCURRENCY).map((n) => sweepShard(env, n)));
    for (const r of results) {
      checked += r.checked;
      failed += r.failed;
    }
  }
  if (failed) console.warn(`cron sweep: ${failed} of ${checked} jobs could not be re-armed`);
  return { checked, failed, moved };
}

/** Re-arms the jobs of shard `n`, a page at a time. */
async function sweepShard(env: Env, n: number): Promise<{ checked: number; failed: number }> {
  const shard = registryShard(env, n);
  let after: JobAddress | null = null;
  let checked = 0;
  let failed = 0;
  for (;;) {
    const page: JobAddress[] = await shard.page(after, PAGE);
    for (let i = 0; i < page.length; i += CONCURRENCY) {
      const batch = page.slice(i, i + CONCURRENCY);
      const results = await Promise.allSettled(
        batch.map((j) => jobStub(env, j.workspace_id, j.job_id).ensureArmed()),
      );
      checked += batch.length;
      failed += results.filter((r) => r.status === "rejected").length;
    }
    if (page.length < PAGE) break;
    after = page.at(-1) ?? null;
  }
  return { checked, failed };
}

/** Moves every entry of the pre-shard registry into its shard; returns how many moved. */
async function drainLegacyRegistry(env: Env): Promise<number> {
  const legacy = legacyJobRegistry(env);
  let moved = 0;
  for (;;) {
    // Each entry is removed once copied, so every page starts from the beginning again.
    const page: JobAddress[] = await legacy.page(null, PAGE);
    if (page.length === 0) return moved;
    const results = await Promise.allSettled(
      page.map(async (j) => {
        await registryShard(env, shardOf(j.workspace_id, j.job_id)).add(j.workspace_id, j.job_id);
        await legacy.remove(j.workspace_id, j.job_id);
      }),
    );
    const done = results.filter((r) => r.status === "fulfilled").length;
    moved += done;
    if (done < page.length) {
      // The rest stay listed in the old registry and move on the next sweep.
      console.warn(`cron sweep: ${page.length - done} jobs could not be moved to their registry shard`);
      return moved;
    }
  }
}
