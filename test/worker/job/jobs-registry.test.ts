import {
  createExecutionContext,
  createScheduledController,
  runInDurableObject,
  waitOnExecutionContext,
} from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { randomToken } from "../../../durable-objects/engine/tokens";
import { legacyJobRegistry, registryShard } from "../../../durable-objects/job-registry/job-registry-object";
import { JOB_REGISTRY_SHARDS, shardOf } from "../../../durable-objects/job-registry/shards";
import worker from "../../../worker/index";
import { api, env } from "../helpers";
import { createJobAt, stubOf } from "./jobs-helpers";

async function cronSweep(): Promise<void> {
  const ctx = createExecutionContext();
  await worker.scheduled(createScheduledController({ cron: "*/10 * * * *" }), env, ctx);
  await waitOnExecutionContext(ctx);
}

/** One job id per registry shard. */
function idPerShard(): string[] {
  const ids = new Map<number, string>();
  while (ids.size < JOB_REGISTRY_SHARDS) {
    const id = `job_${randomToken(12)}`;
    if (!ids.has(shardOf("default", id))) ids.set(shardOf("default", id), id);
  }
  return [...ids.values()];
}

const alarmOf = (id: string) => runInDurableObject(stubOf(id), (_obj, state) => state.storage.getAlarm());
const dropAlarm = (id: string) =>
  runInDurableObject(stubOf(id), (_obj, state) => state.storage.deleteAlarm());
const nightly = { name: "Nightly", prompt: "Go.", schedule: "0 3 * * *", model: "echo" };

describe("the sharded job registry", () => {
  it("spreads jobs over its shards and the Cron Trigger re-arms the jobs of every shard", async () => {
    const ids = idPerShard();
    for (const id of ids) await createJobAt("2026-06-01T00:00:00Z", nightly, id);
    for (const [n, id] of ids.entries()) {
      const listed = await registryShard(env, shardOf("default", id)).page(null, 1000);
      expect(listed, `shard ${n}`).toContainEqual({ workspace_id: "default", job_id: id });
      await dropAlarm(id);
    }
    await cronSweep();
    for (const id of ids) expect(await alarmOf(id), id).not.toBeNull();
  });

  it("moves jobs listed before the split into their shards and re-arms them", async () => {
    const id = `job_${randomToken(12)}`;
    await createJobAt("2026-06-01T00:00:00Z", nightly, id);
    // As the registry kept it before sharding: in the one global list only.
    await registryShard(env, shardOf("default", id)).remove("default", id);
    await legacyJobRegistry(env).add("default", id);
    await dropAlarm(id);
    await cronSweep();
    expect(await alarmOf(id)).not.toBeNull();
    expect(await legacyJobRegistry(env).page(null, 10)).toEqual([]);
    expect(await registryShard(env, shardOf("default", id)).page(null, 1000)).toContainEqual({
      workspace_id: "default",
      job_id: id,
    });
  });

  it("takes a deleted job off its shard", async () => {
    const created = await api("/v1/jobs", { method: "POST", json: nightly });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: string };
    const shard = registryShard(env, shardOf("default", id));
    expect(await shard.page(null, 1000)).toContainEqual({ workspace_id: "default", job_id: id });
    expect((await api(`/v1/jobs/${id}`, { method: "DELETE" })).status).toBe(200);
    expect(await shard.page(null, 1000)).not.toContainEqual({ workspace_id: "default", job_id: id });
  });
});
