/**
 * How the job registry's objects (`JOB_REGISTRY`) are named and reached: the job list is split
 * into numbered shards (`jobs-shard-<n>`); the single list used before the split keeps its name.
 */

/** How many shards hold the jobs: part of every job's address, so fixed here, not configured. */
export const JOB_REGISTRY_SHARDS = 16;
/** The one instance that held every job before the registry was sharded; drained by the sweep. */
export const LEGACY_REGISTRY_NAME = "all-jobs";

/** The stub of shard `n` (0 … JOB_REGISTRY_SHARDS - 1). */
export function registryShard(env: Env, n: number): ReturnType<Env["JOB_REGISTRY"]["get"]> {
  if (!Number.isInteger(n) || n < 0 || n >= JOB_REGISTRY_SHARDS)
    throw new RangeError(`job registry shard ${n}`);
  const ns = env.JOB_REGISTRY;
  return ns.get(ns.idFromName(`jobs-shard-${n}`));
}

/** The stub of the registry used before sharding (the sweep drains it into the shards). */
export function legacyJobRegistry(env: Env): ReturnType<Env["JOB_REGISTRY"]["get"]> {
  const ns = env.JOB_REGISTRY;
  return ns.get(ns.idFromName(LEGACY_REGISTRY_NAME));
}
