import { describe, expect, it } from "vitest";
import type { JobRun } from "../../../../schemas/jobs";
import { api, createConversation, getConversation, script, uniqueKey } from "../../helpers";
import { createJob, settledRun } from "../../job/jobs-helpers";

const recordingOf = async (conv: string) =>
  ((await getConversation(conv)) as unknown as { recording: boolean }).recording;

describe("where recording is turned on", () => {
  it("a job's runs record when the job says so; the workspace default applies unless a conversation says otherwise", async () => {
    // A job with recording on: its run's conversation records.
    const key = uniqueKey("rec-job");
    await script(key, [{ text: "Done." }], true);
    const job = await createJob({
      name: "Recorded",
      prompt: "Go.",
      schedule: "@daily",
      model: key,
      recording: true,
    });
    expect((job as unknown as { recording: boolean }).recording).toBe(true);
    const started = await api(`/v1/jobs/${job.id}/run`, { method: "POST" });
    expect(started.status).toBe(202);
    const run = (await settledRun(job.id)) as JobRun;
    expect(run.conversation_id).not.toBeNull();
    expect(await recordingOf(run.conversation_id!)).toBe(true);

    // Off by default; the workspace's agent settings turn it on for new conversations.
    expect(await recordingOf(await createConversation(key))).toBe(false);
    const put = await api("/v1/settings", { method: "PUT", json: { agent: { recording: true } } });
    expect(put.status).toBe(200);
    expect(await recordingOf(await createConversation(key))).toBe(true);
    expect(await recordingOf(await createConversation(key, { recording: false }))).toBe(false);
  });
});
