import { describe, expect, it } from "vitest";
import type { UsageReport } from "../../../schemas/usage";
import { api, createConversation, readSse, script, uniqueKey, untilRunEnd } from "../helpers";
import { createJob, settledRun } from "../job/jobs-helpers";

async function report(token?: string): Promise<UsageReport> {
  const res = await api("/v1/usage", { token });
  expect(res.status).toBe(200);
  return (await res.json()) as UsageReport;
}

async function runOnce(id: string, content: string, token?: string) {
  const res = await api(`/v1/conversations/${id}/messages`, {
    method: "POST",
    json: { content },
    token,
  });
  await readSse(res, untilRunEnd);
}

describe("the usage report's rows", () => {
  it("name each conversation by its title, null once it is deleted", async () => {
    const key = uniqueKey("usage-title");
    await script(key, [{ text: "ok", usage: { prompt_tokens: 40, completion_tokens: 2 } }], true);
    const titled = await createConversation(key, { title: "Quarterly numbers" });
    const untitled = await createConversation(key);
    await runOnce(titled, "Sum them up");
    await runOnce(untitled, "Compare two plans\nin detail");
    const gone = await createConversation(key);
    await runOnce(gone, "Soon deleted");
    expect((await api(`/v1/conversations/${gone}`, { method: "DELETE" })).status).toBe(200);

    const r = await report();
    const byId = Object.fromEntries(r.sources.map((s) => [s.conversation_id, s]));
    expect(byId[titled]).toMatchObject({
      title: "Quarterly numbers",
      job_id: null,
      runs: 1,
      total_tokens: 42,
    });
    expect(byId[untitled]).toMatchObject({ title: "Compare two plans", runs: 1 });
    // The deleted conversation's tokens were spent: still counted, without a title.
    expect(byId[gone]).toMatchObject({ title: null, runs: 1, total_tokens: 42 });
  });

  it("sum every run of a job under the job", async () => {
    const key = uniqueKey("usage-jobs");
    await script(key, [{ text: "report", usage: { prompt_tokens: 300, completion_tokens: 200 } }], true);
    const job = await createJob({
      name: "Daily digest",
      prompt: "Report.",
      schedule: "0 7 * * *",
      model: key,
    });
    for (let i = 1; i <= 2; i++) {
      expect((await api(`/v1/jobs/${job.id}/run`, { method: "POST" })).status).toBe(202);
      expect((await settledRun(job.id, { count: i })).status).toBe("succeeded");
    }
    const r = await report();
    expect(r.jobs).toEqual([
      {
        job_id: job.id,
        runs: 2,
        input_tokens: 600,
        output_tokens: 400,
        cached_input_tokens: 0,
        total_tokens: 1000,
        cost_usd: null,
        unpriced_tokens: 1000,
        browser_seconds: 0,
      },
    ]);
    expect(r.jobs_total).toBe(1);
    // Each run is its own conversation, carrying the job's id.
    expect(r.sources.filter((s) => s.job_id === job.id).map((s) => s.runs)).toEqual([1, 1]);
  });
});
