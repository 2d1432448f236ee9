import {
  createExecutionContext,
  createScheduledController,
  runDurableObjectAlarm,
  runInDurableObject,
  waitOnExecutionContext,
} from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { JobLedger } from "../../../durable-objects/job/job-ledger";
import type { JobObject } from "../../../durable-objects/job/job-object";
import worker from "../../../worker/index";
import { api, env, eventually, modelRequests, release, script, uniqueKey } from "../helpers";
import { createJobAt, getJob, jobRuns, setClock, settledRun, stubOf } from "./jobs-helpers";

const at = (iso: string) => new Date(iso).getTime();

/** Fires the Cron Trigger handler as the runtime would. */
async function cronSweep(): Promise<void> {
  const ctx = createExecutionContext();
  await worker.scheduled(createScheduledController({ cron: "*/10 * * * *" }), env, ctx);
  await waitOnExecutionContext(ctx);
}

describe("jobs on a schedule", () => {
  it("run in their time zone across a daylight-saving change, one report per occurrence", async () => {
    const key = uniqueKey("job-dst");
    await script(key, [{ text: "Daily note." }], true);
    const job = await createJobAt("2026-03-28T00:00:00Z", {
      name: "Berlin night",
      prompt: "Write the note.",
      schedule: "30 2 * * *",
      timezone: "Europe/Berlin",
      model: key,
    });
    expect(job.next_run_at).toBe(at("2026-03-28T01:30:00Z")); // 02:30 CET

    await setClock(job.id, "2026-03-28T01:30:00Z");
    expect(await runDurableObjectAlarm(stubOf(job.id))).toBe(true);
    const first = await settledRun(job.id);
    expect(first).toMatchObject({
      status: "succeeded",
      trigger: "schedule",
      scheduled_at: at("2026-03-28T01:30:00Z"),
    });
    expect(first.result_path).toBe("reports/berlin-night/2026-03-28-0230.md");

    // 02:30 does not exist on 29 March: the job runs at 03:00 CEST, once.
    expect((await getJob(job.id)).next_run_at).toBe(at("2026-03-29T01:00:00Z"));
    await setClock(job.id, "2026-03-29T01:00:00Z");
    await runDurableObjectAlarm(stubOf(job.id));
    const second = await settledRun(job.id, { count: 2 });
    expect(second).toMatchObject({
      status: "succeeded",
      trigger: "schedule",
      scheduled_at: at("2026-03-29T01:00:00Z"),
    });
    expect(second.result_path).toBe("reports/berlin-night/2026-03-29-0300.md");
    expect(await (await api(`/v1/files/${second.result_path}`)).text()).toBe("Daily note.\n");

    // The next one is back at 02:30, now CEST (00:30 UTC).
    expect((await getJob(job.id)).next_run_at).toBe(at("2026-03-30T00:30:00Z"));
    expect(await jobRuns(job.id)).toHaveLength(2);

    // The ledger pages newest first.
    const page = (await (await api(`/v1/jobs/${job.id}/runs?limit=1`)).json()) as {
      data: { id: string }[];
      has_more: boolean;
      next_cursor: string;
    };
    expect(page).toMatchObject({
      data: [{ id: second.id }],
      has_more: true,
      next_cursor: expect.any(String),
    });
    const rest = (await (await api(`/v1/jobs/${job.id}/runs?limit=1&cursor=${page.next_cursor}`)).json()) as {
      data: { id: string }[];
      has_more: boolean;
    };
    expect(rest).toMatchObject({ data: [{ id: first.id }], has_more: false });
  });

  it("run each occurrence exactly once when alarms, the cron sweep and run-end notices fire together", async () => {
    const key = uniqueKey("job-double");
    await script(key, [{ text: "Once." }], true);
    const job = await createJobAt("2026-06-01T06:59:00Z", {
      name: "Double",
      prompt: "Go.",
      schedule: "0 7 * * *",
      model: key,
    });
    await setClock(job.id, "2026-06-01T07:00:00Z");
    const stub = stubOf(job.id);
    await Promise.all([
      runDurableObjectAlarm(stub),
      runInDurableObject(stub, (obj: JobObject) => obj.alarm()),
      runInDurableObject(stub, (obj: JobObject) => obj.alarm()),
      stub.ensureArmed(),
      cronSweep(),
    ]);
    await settledRun(job.id);
    await runInDurableObject(stub, (obj: JobObject) => obj.alarm());
    await cronSweep();
    await runDurableObjectAlarm(stub);
    const runs = await jobRuns(job.id);
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({ status: "succeeded", scheduled_at: at("2026-06-01T07:00:00Z") });
  });

  it("record an occurrence as skipped while the previous run is still going", async () => {
    const key = uniqueKey("job-overlap");
    await script(key, [{ hang: true, text: "slow" }, { text: "fast" }]);
    const job = await createJobAt("2026-06-01T09:59:00Z", {
      name: "Overlap",
      prompt: "Go.",
      schedule: "*/5 * * * *",
      model: key,
    });
    await setClock(job.id, "2026-06-01T10:00:00Z");
    await runInDurableObject(stubOf(job.id), (obj: JobObject) => obj.alarm());
    await setClock(job.id, "2026-06-01T10:05:00Z");
    await runInDurableObject(stubOf(job.id), (obj: JobObject) => obj.alarm());
    const runs = await jobRuns(job.id);
    expect(runs.map((r) => [r.status, r.scheduled_at])).toEqual([
      ["skipped", at("2026-06-01T10:05:00Z")],
      ["running", at("2026-06-01T10:00:00Z")],
    ]);
    expect(runs[0].error).toMatchObject({ code: "overlap" });
    await eventually(async () => (await modelRequests(key)).length > 0);
    await release(key);
    const first = await eventually(async () => {
      const run = (await jobRuns(job.id)).find((r) => r.scheduled_at === at("2026-06-01T10:00:00Z"));
      return run?.status === "succeeded" ? run : null;
    });
    expect(first.result_path).toBe("reports/overlap/2026-06-01-1000.md");
  });

  it("after downtime, make up for missed occurrences with a single catch-up run", async () => {
    const key = uniqueKey("job-catchup");
    await script(key, [{ text: "Caught up." }], true);
    const job = await createJobAt("2026-06-01T00:00:00Z", {
      name: "Hourly",
      prompt: "Go.",
      schedule: "0 * * * *",
      model: key,
    });
    await setClock(job.id, "2026-06-01T05:30:00Z");
    await runInDurableObject(stubOf(job.id), (obj: JobObject) => obj.alarm());
    const run = await settledRun(job.id);
    expect(run).toMatchObject({
      status: "succeeded",
      trigger: "catch_up",
      missed_occurrences: 5,
      scheduled_at: at("2026-06-01T05:00:00Z"),
    });
    await runInDurableObject(stubOf(job.id), (obj: JobObject) => obj.alarm());
    await cronSweep();
    expect(await jobRuns(job.id)).toHaveLength(1);
    expect((await getJob(job.id)).next_run_at).toBe(at("2026-06-01T06:00:00Z"));
  });

  it("get their alarm back from the Cron Trigger when it was lost", async () => {
    const key = uniqueKey("job-rearm");
    await script(key, [{ text: "Back." }], true);
    const job = await createJobAt("2026-06-01T07:50:00Z", {
      name: "Rearm",
      prompt: "Go.",
      schedule: "0 8 * * *",
      model: key,
    });
    const stub = stubOf(job.id);
    await runInDurableObject(stub, (_obj, state) => state.storage.deleteAlarm());
    expect(await runInDurableObject(stub, (_obj, state) => state.storage.getAlarm())).toBeNull();
    await cronSweep();
    const alarm = await runInDurableObject(stub, (_obj, state) => state.storage.getAlarm());
    // Armed for 08:00 in the job's clock: about ten minutes from now.
    expect(alarm).toBeGreaterThan(Date.now() + 9 * 60_000);
    expect(alarm).toBeLessThan(Date.now() + 11 * 60_000);
    expect(await jobRuns(job.id)).toHaveLength(0);

    // Lost again and overdue: the sweep arms it for now, and the alarm runs the occurrence.
    await runInDurableObject(stub, (_obj, state) => state.storage.deleteAlarm());
    await setClock(job.id, "2026-06-01T08:00:30Z");
    await cronSweep();
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    expect(await settledRun(job.id)).toMatchObject({ status: "succeeded", trigger: "schedule" });
  });

  it("count occurrences from now on when re-enabled, without a catch-up storm", async () => {
    const key = uniqueKey("job-enable");
    await script(key, [{ text: "ok" }], true);
    const job = await createJobAt("2026-06-01T00:00:00Z", {
      name: "Paused",
      prompt: "Go.",
      schedule: "*/15 * * * *",
      model: key,
      enabled: false,
    });
    expect(job.next_run_at).toBeNull();
    await setClock(job.id, "2026-06-01T03:07:00Z");
    await runInDurableObject(stubOf(job.id), (obj: JobObject) => obj.alarm());
    expect(await jobRuns(job.id)).toHaveLength(0);
    const res = await api(`/v1/jobs/${job.id}`, { method: "PATCH", json: { enabled: true } });
    expect(await res.json()).toMatchObject({ enabled: true, next_run_at: at("2026-06-01T03:15:00Z") });
    await runInDurableObject(stubOf(job.id), (obj: JobObject) => obj.alarm());
    expect(await jobRuns(job.id)).toHaveLength(0);
  });

  it("finish starting a run that a crash interrupted between claiming it and creating its conversation", async () => {
    const key = uniqueKey("job-crash");
    await script(key, [{ text: "Recovered." }], true);
    const job = await createJobAt("2026-06-01T11:59:00Z", {
      name: "Crash",
      prompt: "Go.",
      schedule: "0 12 * * *",
      model: key,
    });
    // What a crash leaves behind: the occurrence claimed as running, no conversation yet.
    await runInDurableObject(stubOf(job.id), (obj: JobObject) => {
      const ledger = (obj as unknown as { ledger: JobLedger }).ledger;
      ledger.claim({
        key: `at:${at("2026-06-01T12:00:00Z")}`,
        trigger: "schedule",
        scheduledAt: at("2026-06-01T12:00:00Z"),
        missed: 0,
        status: "running",
        now: at("2026-06-01T12:00:00Z"),
        conversationId: "conv_crashrecovery01",
        convRunId: "run_crash-recovery",
        deadline: at("2026-06-01T12:30:00Z"),
      });
    });
    await setClock(job.id, "2026-06-01T12:01:00Z");
    await runInDurableObject(stubOf(job.id), (obj: JobObject) => obj.alarm());
    const run = await settledRun(job.id);
    expect(run).toMatchObject({ status: "succeeded", conversation_id: "conv_crashrecovery01" });
    expect(await jobRuns(job.id)).toHaveLength(1);
  });
});
