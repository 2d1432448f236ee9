/** Where a job is listed in the sharded registry: plain functions, no runtime needed. */

/**
 * How many shards hold the jobs. Part of every job's address in the registry: raising it
 * needs a move of the existing entries, so it is fixed here rather than configured.
 */
export const JOB_REGISTRY_SHARDS = 16;
/** The one instance that held every job before the registry was sharded; drained by the sweep. */
export const LEGACY_REGISTRY_NAME = "all-jobs";

/** The shard (0 … JOB_REGISTRY_SHARDS - 1) of a job: FNV-1a of `<workspace>/<job>`. */
export function shardOf(workspaceId: string, jobId: string): number {
  let hash = 0x811c9dc5;
  for (const byte of new TextEncoder().encode(`${workspaceId}/${jobId}`)) {
    hash ^= byte;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash % JOB_REGISTRY_SHARDS;
}
