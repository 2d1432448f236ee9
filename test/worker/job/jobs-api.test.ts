import { runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { JobObject } from "../../../durable-objects/job/job-object";
import type { Job } from "../../../schemas/jobs";
import { api, env } from "../helpers";
import { createJob, otherWorkspaceKey, stubOf } from "./jobs-helpers";

const base = { name: "AI news digest", prompt: "Summarise this week's AI news.", schedule: "0 7 * * 1-5" };

async function refused(body: Record<string, unknown>, method = "POST", path = "/v1/jobs") {
  const res = await api(path, { method, json: body });
  expect(res.status).toBe(400);
  return ((await res.json()) as { error: { code: string; message: string } }).error;
}

describe("the jobs API", () => {
  it("creates a job with defaults and shows its webhook secret to the owner only on the job itself", async () => {
    const job = await createJob({
      ...base,
      timezone: "Europe/Berlin",
      webhook_url: "https://hooks.example.com/x",
    });
    expect(job).toMatchObject({
      object: "job",
      name: "AI news digest",
      timezone: "Europe/Berlin",
      output_path: "reports/{job}/{date}-{time}.md",
      enabled: true,
      max_runtime_seconds: 1800,
      instructions: null,
    });
    expect(job.id).toMatch(/^job_[A-Za-z0-9_-]{16}$/);
    expect(job.webhook_secret).toMatch(/^whsec_/);
    expect(job.next_run_at).toBeGreaterThan(Date.now());
    expect(new Date(job.next_run_at!).getUTCMinutes()).toBe(0);

    const got = (await (await api(`/v1/jobs/${job.id}`)).json()) as Job;
    expect(got.webhook_secret).toBe(job.webhook_secret);
    const list = (await (await api("/v1/jobs")).json()) as { data: Job[] };
    const listed = list.data.find((j) => j.id === job.id);
    expect(listed).toMatchObject({ id: job.id, name: base.name });
    expect(listed).not.toHaveProperty("webhook_secret");
  });

  it("defaults a structured job's output to JSON", async () => {
    const job = await createJob({ ...base, output_schema: { type: "object" } });
    expect(job.output_path).toBe("reports/{job}/{date}-{time}.json");
  });

  it("updates a job partially, and null clears an optional setting", async () => {
    const job = await createJob({ ...base, webhook_url: "https://hooks.example.com/x", max_tokens: 5000 });
    const res = await api(`/v1/jobs/${job.id}`, {
      method: "PATCH",
      json: { schedule: "@daily", webhook_url: null, enabled: false, max_tokens: null },
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({
      schedule: "@daily",
      webhook_url: null,
      enabled: false,
      next_run_at: null,
      max_tokens: null,
      name: base.name,
    });
    const bad = await refused({ timezone: "Nowhere/Land" }, "PATCH", `/v1/jobs/${job.id}`);
    expect(bad.code).toBe("invalid_timezone");
  });

  it("refuses invalid cron expressions, time zones, templates, schemas and webhook URLs with clear errors", async () => {
    expect(await refused({ ...base, schedule: "* * * * * *" })).toEqual({
      code: "invalid_schedule",
      message: expect.stringMatching(
        /schedule: "\* \* \* \* \* \*" has 6 fields; a schedule needs exactly 5/,
      ),
    });
    expect((await refused({ ...base, schedule: "0 25 * * *" })).message).toMatch(
      /not a valid cron expression.*hour/i,
    );
    expect(await refused({ ...base, timezone: "Mars/Olympus" })).toEqual({
      code: "invalid_timezone",
      message: expect.stringMatching(/"Mars\/Olympus" is not a known IANA time zone/),
    });
    expect(await refused({ ...base, output_path: "reports/{week}.md" })).toEqual({
      code: "invalid_output_path",
      message: expect.stringMatching(/unknown placeholder \{week\}/),
    });
    expect((await refused({ ...base, output_path: "../escape/{job}.md" })).message).toMatch(/"\.\."/);
    expect((await refused({ ...base, output_path: "/abs/{job}.md" })).message).toMatch(/relative/);
    expect((await refused({ ...base, output_schema: { type: "objekt" } })).code).toBe(
      "invalid_output_schema",
    );
    expect(await refused({ ...base, webhook_url: "ftp://example.com/hook" })).toEqual({
      code: "invalid_webhook_url",
      message: expect.stringMatching(/Only http and https/),
    });
    expect((await refused({ ...base, webhook_url: "not a url" })).message).toMatch(/not an absolute URL/);
    expect((await refused({ ...base, schedule: undefined })).code).toBe("invalid_request");
    expect((await refused({ ...base, colour: "blue" })).message).toMatch(/colour/);
  });

  it("needs a key, and keeps each workspace's jobs to itself", async () => {
    expect((await api("/v1/jobs", { token: null })).status).toBe(401);
    const job = await createJob(base);
    const key = await otherWorkspaceKey();
    for (const [method, path] of [
      ["GET", `/v1/jobs/${job.id}`],
      ["PATCH", `/v1/jobs/${job.id}`],
      ["DELETE", `/v1/jobs/${job.id}`],
      ["POST", `/v1/jobs/${job.id}/run`],
      ["GET", `/v1/jobs/${job.id}/runs`],
    ]) {
      const res = await api(path, {
        method,
        token: key,
        json: method === "PATCH" ? { name: "x" } : undefined,
      });
      expect(res.status, `${method} ${path}`).toBe(404);
    }
    const theirs = (await (await api("/v1/jobs", { token: key })).json()) as { data: Job[] };
    expect(theirs.data).toEqual([]);
    const mine = await createJob({ ...base, name: "theirs" }, key);
    expect((await api(`/v1/jobs/${mine.id}`)).status).toBe(404);
  });

  it("cannot be reached with a publishable (widget) key", async () => {
    const ws = (await (await api("/v1/workspaces", { method: "POST", json: { name: "site" } })).json()) as {
      id: string;
    };
    const pk = (await (
      await api(`/v1/workspaces/${ws.id}/keys`, {
        method: "POST",
        json: { name: "site", type: "publishable", allowed_origins: ["https://shop.example"] },
      })
    ).json()) as { key: string };
    const headers = { origin: "https://shop.example" };
    for (const [method, path] of [
      ["GET", "/v1/jobs"],
      ["POST", "/v1/jobs"],
    ]) {
      const res = await api(path, {
        method,
        token: pk.key,
        headers,
        json: method === "POST" ? base : undefined,
      });
      expect(res.status, `${method} ${path}`).toBe(403);
    }
  });

  it("deletes a job and its ledger", async () => {
    const job = await createJob(base);
    const res = await api(`/v1/jobs/${job.id}`, { method: "DELETE" });
    expect(await res.json()).toEqual({ id: job.id, deleted: true });
    expect((await api(`/v1/jobs/${job.id}`)).status).toBe(404);
    expect((await api(`/v1/jobs/${job.id}/runs`)).status).toBe(404);
    const list = (await (await api("/v1/jobs")).json()) as { data: Job[] };
    expect(list.data.some((j) => j.id === job.id)).toBe(false);
  });

  it("is described in the OpenAPI document", async () => {
    const doc = (await (await api("/openapi.json")).json()) as { paths: Record<string, unknown> };
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining(["/v1/jobs", "/v1/jobs/{id}", "/v1/jobs/{id}/run", "/v1/jobs/{id}/runs"]),
    );
  });

  it("refuses webhook URLs to private addresses where private networking is not allowed", async () => {
    // Tests allow private networks (the receiver is on 127.0.0.1); a production deployment does not.
    const refused = await runInDurableObject(stubOf("job_privatecheck01"), async (obj: JobObject) => {
      Object.assign(obj, { env: { ...env, ALLOW_PRIVATE_NETWORK: "false" } });
      const results = [];
      for (const url of [
        "http://127.0.0.1:8080/hook",
        "http://10.1.2.3/hook",
        "http://[::1]/hook",
        "http://metadata.google.internal/",
      ])
        results.push(
          await obj.create(
            "job_privatecheck01",
            "default",
            { ...base, timezone: "UTC", enabled: true, webhook_url: url },
            "whsec_x",
          ),
        );
      return results;
    });
    for (const r of refused) {
      expect(r).toMatchObject({ ok: false, status: 400, code: "invalid_webhook_url" });
      expect((r as { message: string }).message).toMatch(/webhooks are only sent to public addresses/);
    }
    expect((refused[0] as { message: string }).message).toBe(
      "webhook_url points to a private or local address (127.0.0.1); webhooks are only sent to public addresses.",
    );
  });
});
