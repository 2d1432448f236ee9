import { describe, expect, it } from "vitest";
import type { Job, JobRun } from "../../../schemas/jobs";
import { api, modelRequests, script, uniqueKey } from "../helpers";
import { createJob, pageUrl, settledRun } from "./jobs-helpers";

const CRITERION = "Names three European rivers";

async function runNow(id: string): Promise<JobRun> {
  const res = await api(`/v1/jobs/${id}/run`, { method: "POST" });
  expect(res.status).toBe(202);
  return (await res.json()) as JobRun;
}

const finishWith = (result: string) => ({ tool_calls: [{ name: "finish", arguments: { result } }] });
const userText = (r: { messages: { role: string; content: unknown }[] }) =>
  String(r.messages.find((m) => m.role === "user")?.content);

describe("research jobs", () => {
  it("sends a report citing an unread page back, and tells the next run the reports and URLs before it", async () => {
    const key = uniqueKey("job-memory");
    const article = `${pageUrl()}/web/article`;
    const unread = `${pageUrl()}/web/never-read`;
    await script(key, [
      { tool_calls: [{ name: "web_fetch", arguments: { url: article } }] },
      finishWith(`# Rivers\n\nSee [the article](${article}) and [another](${unread}).`),
      finishWith(`# Rivers\n\nSee [the article](${article}).`),
      finishWith("# Rivers again\n\nNothing new."),
    ]);
    const job = await createJob({
      name: "River digest",
      prompt: "Write the river digest.",
      schedule: "@daily",
      model: key,
    });
    expect(job).toMatchObject({
      verify_citations: "revise",
      max_revisions: 1,
      memory_runs: 3,
      success_criteria: null,
    });

    await runNow(job.id);
    const first = await settledRun(job.id);
    expect(first).toMatchObject({
      status: "succeeded",
      citations_unverified: 0,
      grades_passed: null,
      grades_total: null,
    });
    const afterFirst = await modelRequests(key);
    expect(afterFirst).toHaveLength(3);
    expect(userText(afterFirst[0])).toBe("Write the river digest.");
    expect(String(afterFirst[2].messages.at(-1)!.content)).toContain(unread);

    await runNow(job.id);
    const second = await settledRun(job.id, { count: 2 });
    expect(second.status).toBe("succeeded");
    const request = (await modelRequests(key))[3];
    const memory = userText(request);
    expect(memory).toMatch(/^<earlier_runs>\n/);
    expect(memory).toContain(`- run 1 (`);
    expect(memory).toContain(first.result_path!);
    expect(memory).toContain(`  - ${article}`);
    expect(memory).not.toContain(unread);
    expect(memory.endsWith("</earlier_runs>\n\nWrite the river digest.")).toBe(true);
    expect(String(request.messages[0].content)).toContain("<earlier_runs>");
  });

  it("turns memory off with memory_runs 0", async () => {
    const key = uniqueKey("job-nomemory");
    await script(key, [finishWith("one"), finishWith("two")]);
    const job = await createJob({
      name: "Forgetful",
      prompt: "Go.",
      schedule: "@daily",
      model: key,
      memory_runs: 0,
    });
    await runNow(job.id);
    await settledRun(job.id);
    await runNow(job.id);
    await settledRun(job.id, { count: 2 });
    const [, second] = await modelRequests(key);
    expect(userText(second)).toBe("Go.");
    expect(String(second.messages[0].content)).not.toContain("<earlier_runs>");
  });

  it("records the grades in the ledger and, with fail_on_ungraded, marks a failing run failed", async () => {
    const key = uniqueKey("job-graded");
    await script(key, [
      finishWith("The Danube."),
      { json: { grades: [{ criterion: CRITERION, pass: false, reason: "Only one river." }] } },
    ]);
    const job = await createJob({
      name: "Graded",
      prompt: "Name rivers.",
      schedule: "@daily",
      model: key,
      success_criteria: [CRITERION],
      max_revisions: 0,
      fail_on_ungraded: true,
    });
    await runNow(job.id);
    const run = await settledRun(job.id);
    expect(run).toMatchObject({
      status: "failed",
      grades_passed: 0,
      grades_total: 1,
      error: {
        code: "criteria_failed",
        message: `1 of 1 success criteria failed: ${CRITERION} (Only one river.)`,
      },
    });
    expect(run.result_path).toMatch(/^reports\/graded\//);
    const grader = (await modelRequests(key))[1];
    expect(grader).toMatchObject({ response_format: { type: "json_schema" } });
  });

  it("shows, changes and clears the research settings through the API and the OpenAPI document", async () => {
    const job = await createJob({
      name: "Settings",
      prompt: "Go.",
      schedule: "@daily",
      verify_citations: "flag",
      max_revisions: 2,
      memory_runs: 5,
      success_criteria: ["Cites a source"],
      grader_model: "grader-x",
      fail_on_ungraded: true,
    });
    expect(job).toMatchObject({
      verify_citations: "flag",
      max_revisions: 2,
      memory_runs: 5,
      success_criteria: ["Cites a source"],
      grader_model: "grader-x",
      fail_on_ungraded: true,
    });
    const patched = await api(`/v1/jobs/${job.id}`, {
      method: "PATCH",
      json: { verify_citations: "off", success_criteria: null, grader_model: null, memory_runs: 0 },
    });
    expect(patched.status).toBe(200);
    expect(await patched.json()).toMatchObject({
      verify_citations: "off",
      success_criteria: null,
      grader_model: null,
      memory_runs: 0,
      max_revisions: 2,
    } satisfies Partial<Job>);
    const doc = (await (await api("/openapi.json")).json()) as {
      components: { schemas: Record<string, { properties: Record<string, unknown> }> };
    };
    const props = (name: string) => {
      const schema = doc.components.schemas[name];
      if (!schema) throw new Error(`${name} not in ${Object.keys(doc.components.schemas).join(",")}`);
      return Object.keys(schema.properties);
    };
    expect(props("CreateJob")).toEqual(
      expect.arrayContaining([
        "verify_citations",
        "max_revisions",
        "memory_runs",
        "success_criteria",
        "grader_model",
        "fail_on_ungraded",
      ]),
    );
    expect(props("JobRun")).toEqual(
      expect.arrayContaining(["citations_unverified", "grades_passed", "grades_total"]),
    );
    expect(props("RunResult")).toEqual(
      expect.arrayContaining([
        "citations",
        "citations_unverified",
        "uncited_quotes",
        "grades",
        "grading_error",
        "revisions",
      ]),
    );
    expect(props("SendMessage")).toEqual(
      expect.arrayContaining(["verify_citations", "max_revisions", "success_criteria", "grader_model"]),
    );
    expect(props("CreateConversation")).toEqual(
      expect.arrayContaining(["verify_citations", "max_revisions", "grader_model"]),
    );
    expect(props("Conversation")).toEqual(
      expect.arrayContaining(["verify_citations", "max_revisions", "grader_model"]),
    );
  });

  it("refuses a criteria list that is too long and an unknown verify_citations value with a 400", async () => {
    const base = { name: "Bad", prompt: "Go.", schedule: "@daily" };
    const tooMany = Array.from({ length: 21 }, (_, i) => `criterion ${i}`);
    const cases: [string, Record<string, unknown>][] = [
      ["/v1/jobs", { ...base, success_criteria: tooMany }],
      ["/v1/jobs", { ...base, verify_citations: "sometimes" }],
      ["/v1/conversations", { verify_citations: "sometimes" }],
    ];
    for (const [path, json] of cases) {
      const res = await api(path, { method: "POST", json });
      expect(res.status, JSON.stringify(json).slice(0, 80)).toBe(400);
      const body = (await res.json()) as { error: { code: string; message: string } };
      expect(Object.keys(body)).toEqual(["error"]);
      expect(body.error.code).toBe("invalid_request");
      expect(body.error.message).toMatch(/success_criteria|verify_citations/);
    }
    const conv = await api("/v1/conversations", { method: "POST", json: {} });
    const { id } = (await conv.json()) as { id: string };
    for (const json of [
      { content: "x", success_criteria: tooMany },
      { content: "x", verify_citations: "always" },
    ]) {
      const res = await api(`/v1/conversations/${id}/messages`, { method: "POST", json });
      expect(res.status).toBe(400);
      const body = (await res.json()) as { error: { code: string; message: string } };
      expect(body.error.code).toBe("invalid_request");
      expect(body.error.message).toMatch(/success_criteria|verify_citations/);
    }
  });
});
