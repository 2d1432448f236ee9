/**
 * The Cron Trigger's work: walk the registry of every job and make sure each has its alarm.
 * `ensureArmed` is idempotent and never runs anything itself, so a sweep that overlaps an alarm
 * cannot start a run twice.
 */

import { jobStub } from "../durable-objects/conversation/job-link";
import type { JobAddress } from "../durable-objects/job-registry/job-registry";
import { jobRegistry } from "../durable-objects/job-registry/job-registry";

/** Jobs read from the registry per page. */
const PAGE = 200;
/** Jobs asked at once. */
const CONCURRENCY = 20;

/** Re-arms every job; returns how many were checked and how many could not be reached. */
export async function rearmJobs(env: Env): Promise<{ checked: number; failed: number }> {
  const registry = jobRegistry(env);
  let after: JobAddress | null = null;
  let checked = 0;
  let failed = 0;
  for (;;) {
    const page: JobAddress[] = await registry.page(after, PAGE);
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
  if (failed) console.warn(`cron sweep: ${failed} of ${checked} jobs could not be re-armed`);
  return { checked, failed };
}
