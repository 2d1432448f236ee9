/** Scheduled jobs: create, list, read, update, delete, run now, and the run ledger. */

import { createRoute, z } from "@hono/zod-openapi";
import { jobStub } from "../../durable-objects/addresses/job";
import { randomToken } from "../../durable-objects/engine/tokens";
import { newWebhookSecret } from "../../durable-objects/engine/webhook-delivery/signing";
import type { JobObject } from "../../durable-objects/job/job-object";
import { registerJob, unregisterJob } from "../../durable-objects/job-registry/job-registry-object";
import { CredentialsCleared } from "../../schemas/credentials";
import { CreateJob, Job, JobList, JobRun, JobRunList, UpdateJob } from "../../schemas/jobs";
import { cursorPage } from "../../schemas/page";
import { createApp } from "../app-factory";
import { ApiError, unwrap } from "../errors";
import { assertProfile, workspaceStub } from "../stubs";
import { checkMcpServerNames } from "./mcp-servers";
import { commonErrors, deletedResponse, json, jsonBody, KeysetPageQuery } from "./route-helpers";

import { JOB_ID } from "../../durable-objects/addresses/ids";
const IdParam = z.object({
  id: z.string().openapi({ param: { name: "id", in: "path" }, example: "job_abc123" }),
});

const app = createApp();

/** The stub of a job of the caller's workspace that must exist (another workspace's id is a 404). */
async function existingJob(env: Env, workspaceId: string, id: string): Promise<DurableObjectStub<JobObject>> {
  const stub = JOB_ID.test(id) ? jobStub(env, workspaceId, id) : null;
  if (!stub || !(await stub.describe(false)))
    throw new ApiError(404, "not_found", `No job ${id} in this workspace.`);
  return stub;
}

app.openapi(
  createRoute({
    method: "post",
    path: "/jobs",
    summary: "Create a scheduled job",
    description:
      "The response includes `webhook_secret` (`whsec_…`), which signs webhook deliveries. Invalid cron expressions, unknown time zones, bad output_path templates and webhook URLs to private addresses are refused with a 400 that says what is wrong.",
    tags: ["Jobs"],
    request: { body: jsonBody(CreateJob) },
    responses: { 201: json(Job, "The new job"), ...commonErrors },
  }),
  async (c) => {
    const { workspaceId } = c.get("principal");
    await assertProfile(c.env, workspaceId, c.req.valid("json").browser_profile);
    await checkMcpServerNames(c.env, workspaceId, c.req.valid("json").mcp_servers);
    const id = `job_${randomToken(12)}`;
    const job: Job = unwrap(
      await jobStub(c.env, workspaceId, id).create(
        id,
        workspaceId,
        c.req.valid("json"),
        newWebhookSecret(),
        new URL(c.req.url).origin,
      ),
    );
    await workspaceStub(c.env, workspaceId).addJob(id, job.created_at);
    await registerJob(c.env, workspaceId, id);
    return c.json(job, 201);
  },
);

app.openapi(
  createRoute({
    method: "get",
    path: "/jobs",
    summary: "List the workspace's jobs, oldest first",
    tags: ["Jobs"],
    request: { query: KeysetPageQuery },
    responses: { 200: json(JobList, "A page of jobs"), ...commonErrors },
  }),
  async (c) => {
    const { limit, cursor } = c.req.valid("query");
    const { workspaceId } = c.get("principal");
    const page = unwrap(await workspaceStub(c.env, workspaceId).listJobs(limit, cursor ?? null));
    const jobs = (await Promise.all(
      page.ids.map((id) => jobStub(c.env, workspaceId, id).describe(false)),
    )) as unknown as (Job | null)[];
    const data = jobs.filter((j): j is Job => j !== null);
    return c.json(cursorPage(data, page.hasMore, page.lastCursor), 200);
  },
);

app.openapi(
  createRoute({
    method: "get",
    path: "/jobs/{id}",
    summary: "Get a job (with its webhook secret)",
    tags: ["Jobs"],
    request: { params: IdParam },
    responses: { 200: json(Job, "The job"), ...commonErrors },
  }),
  async (c) => {
    const { id } = c.req.valid("param");
    const stub = await existingJob(c.env, c.get("principal").workspaceId, id);
    return c.json((await stub.describe(true)) as unknown as Job, 200);
  },
);

app.openapi(
  createRoute({
    method: "patch",
    path: "/jobs/{id}",
    summary: "Change a job; `null` clears an optional setting",
    description:
      "A new schedule or time zone, or re-enabling, counts occurrences from now on (no catch-up). A `webhook_url` on another origin gets a new `webhook_secret` (`credentials_cleared: true`).",
    tags: ["Jobs"],
    request: { params: IdParam, body: jsonBody(UpdateJob) },
    responses: {
      200: json(Job.extend({ credentials_cleared: CredentialsCleared }), "The updated job"),
      ...commonErrors,
    },
  }),
  async (c) => {
    const { id } = c.req.valid("param");
    const { workspaceId } = c.get("principal");
    const stub = await existingJob(c.env, workspaceId, id);
    await assertProfile(c.env, workspaceId, c.req.valid("json").browser_profile);
    await checkMcpServerNames(c.env, workspaceId, c.req.valid("json").mcp_servers);
    const job = unwrap(await stub.update(c.req.valid("json"))) as Job & { credentials_cleared: boolean };
    return c.json(job, 200);
  },
);

app.openapi(
  createRoute({
    method: "delete",
    path: "/jobs/{id}",
    summary: "Delete a job and its ledger (its conversations and reports stay)",
    tags: ["Jobs"],
    request: { params: IdParam },
    responses: {
      200: deletedResponse("id"),
      ...commonErrors,
    },
  }),
  async (c) => {
    const { id } = c.req.valid("param");
    const { workspaceId } = c.get("principal");
    const stub = await existingJob(c.env, workspaceId, id);
    await stub.destroy();
    await workspaceStub(c.env, workspaceId).removeJob(id);
    await unregisterJob(c.env, workspaceId, id);
    return c.json({ id, deleted: true as const }, 200);
  },
);

app.openapi(
  createRoute({
    method: "post",
    path: "/jobs/{id}/run",
    summary: "Run a job now",
    description:
      "Answers with the ledger entry: `running`, or `skipped` when the previous run is still going.",
    tags: ["Jobs"],
    request: { params: IdParam },
    responses: {
      202: json(JobRun, "The run (or the skipped occurrence)"),
      ...commonErrors,
    },
  }),
  async (c) => {
    const { id } = c.req.valid("param");
    const stub = await existingJob(c.env, c.get("principal").workspaceId, id);
    const run: JobRun = unwrap(await stub.runNow());
    return c.json(run, 202);
  },
);

app.openapi(
  createRoute({
    method: "get",
    path: "/jobs/{id}/runs",
    summary: "The run ledger, newest first",
    description:
      "Each entry: scheduled time, start, end, status (running, succeeded, failed, timed_out, skipped), trigger (schedule, catch_up, manual), the conversation (inspectable through the conversations API), the result's path, tokens used, error and webhook delivery.",
    tags: ["Jobs"],
    request: { params: IdParam, query: KeysetPageQuery },
    responses: { 200: json(JobRunList, "A page of runs"), ...commonErrors },
  }),
  async (c) => {
    const { id } = c.req.valid("param");
    const { limit, cursor } = c.req.valid("query");
    const stub = await existingJob(c.env, c.get("principal").workspaceId, id);
    return c.json(unwrap(await stub.listRuns(limit, cursor ?? null)), 200);
  },
);

export default app;
