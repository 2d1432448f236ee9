/** Helpers for the scheduled-jobs tests: the jobs API, the job's clock seam, the signed receiver. */
import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { inject } from "vitest";
import { jobStub } from "../../../durable-objects/addresses/job";
import { randomToken } from "../../../durable-objects/engine/tokens";
import type { JobObject } from "../../../durable-objects/job/job-object";
import { registerJob } from "../../../durable-objects/job-registry/job-registry-object";
import type { CreateJob, Job, JobRun } from "../../../schemas/jobs";
import { api, eventually, newWorkspaceKey } from "../helpers";

export const pageUrl = () => inject("pageUrl");

/** Configures a signed-request receiver on the page server. */
export async function configureReceiver(name: string, config: Record<string, unknown>): Promise<void> {
  await fetch(`${pageUrl()}/receiver/${name}/config`, { method: "POST", body: JSON.stringify(config) });
}

/** What a receiver got, with its signature check. */
export async function receiverLog(
  name: string,
): Promise<
  { valid: boolean; reason?: string; body: Record<string, unknown>; headers: Record<string, string> }[]
> {
  const res = await fetch(`${pageUrl()}/receiver/${name}/log`);
  return ((await res.json()) as { requests: never[] }).requests;
}

/** Creates a job through the API (default workspace unless a token is given). */
export async function createJob(body: Record<string, unknown>, token?: string): Promise<Job> {
  const res = await api("/v1/jobs", { method: "POST", json: body, token });
  if (res.status !== 201) throw new Error(`create job: ${res.status} ${await res.text()}`);
  return (await res.json()) as Job;
}

/** The job's ledger, newest first. */
export async function jobRuns(id: string): Promise<JobRun[]> {
  const res = await api(`/v1/jobs/${id}/runs?limit=100`);
  if (res.status !== 200) throw new Error(`runs: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { data: JobRun[] }).data;
}

/** Waits until the job's newest run has ended (and its webhook, if any, is settled when asked). */
export function settledRun(id: string, opts: { webhook?: boolean; count?: number } = {}): Promise<JobRun> {
  return eventually(async () => {
    const runs = await jobRuns(id);
    if (runs.length < (opts.count ?? 1)) return null;
    const run = runs[0];
    if (run.status === "running") return null;
    if (opts.webhook && run.webhook?.status === "pending") return null;
    return run;
  }, 20_000);
}

/** The stub of a job of the default workspace. */
export const stubOf = (id: string) => jobStub(env, "default", id);

/** Moves the job's clock so that it reads `iso` now and keeps ticking with real time. */
export async function setClock(id: string, iso: string): Promise<void> {
  const target = new Date(iso).getTime();
  const realStart = Date.now();
  await runInDurableObject(stubOf(id), (obj: JobObject) => {
    obj.clock = () => target + (Date.now() - realStart);
  });
}

/** Creates a job in the default workspace whose clock reads `iso` from its creation on. */
export async function createJobAt(
  iso: string,
  body: Partial<CreateJob> & Record<string, unknown>,
  id = `job_${randomToken(12)}`,
): Promise<Job> {
  await setClock(id, iso);
  const created = await runInDurableObject(stubOf(id), (obj: JobObject) =>
    obj.create(
      id,
      "default",
      { timezone: "UTC", enabled: true, ...body } as CreateJob,
      `whsec_${randomToken(24)}`,
    ),
  );
  if (!created.ok) throw new Error(`create job: ${created.message}`);
  const ws = env.WORKSPACES.get(env.WORKSPACES.idFromName("default"));
  await ws.addJob(id, created.value.created_at);
  await registerJob(env, "default", id);
  return created.value;
}

/** GET a job. */
export async function getJob(id: string): Promise<Job> {
  return (await (await api(`/v1/jobs/${id}`)).json()) as Job;
}

/** A workspace of its own with a key, for isolation tests. */
export async function otherWorkspaceKey(): Promise<string> {
  return (await newWorkspaceKey("other")).key;
}
