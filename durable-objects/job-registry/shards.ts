/** Where a job is listed in the sharded registry: plain functions, no runtime needed. */

import { JOB_REGISTRY_SHARDS } from "../addresses/job-registry";

export { JOB_REGISTRY_SHARDS, LEGACY_REGISTRY_NAME } from "../addresses/job-registry";

/** The shard (0 … JOB_REGISTRY_SHARDS - 1) of a job: FNV-1a of `<workspace>/<job>`. */
export function shardOf(workspaceId: string, jobId: string): number {
  let hash = 0x811c9dc5;
  for (const byte of new TextEncoder().encode(`${workspaceId}/${jobId}`)) {
    hash ^= byte;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash % JOB_REGISTRY_SHARDS;
}
