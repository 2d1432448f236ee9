import { describe, expect, it } from "vitest";
import { JOB_REGISTRY_SHARDS, shardOf } from "../../../durable-objects/job-registry/shards";

describe("the job registry's shards", () => {
  it("place a job by its address the same way in every release (entries are stored by it)", () => {
    expect(JOB_REGISTRY_SHARDS).toBe(16);
    expect(shardOf("default", "job_abc")).toBe(shardOf("default", "job_abc"));
    // Pinned: a change of the hash would leave existing entries in the wrong shard.
    expect([shardOf("default", "job_abc"), shardOf("ws-1", "job_x"), shardOf("a", "b")]).toEqual([1, 6, 1]);
  });

  it("spread many jobs over every shard", () => {
    const counts = new Array<number>(JOB_REGISTRY_SHARDS).fill(0);
    for (let i = 0; i < 16_000; i++) counts[shardOf(`ws-${i % 37}`, `job_${i}`)]++;
    expect(Math.min(...counts)).toBeGreaterThan(800);
    expect(Math.max(...counts)).toBeLessThan(1_200);
  });
});
