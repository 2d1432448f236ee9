import { describe, expect, it } from "vitest";
import {
  api,
  createConversation,
  modelRequests,
  newWorkspaceKey,
  readSse,
  script,
  uniqueKey,
  untilRunEnd,
} from "../helpers";

const CRITERION = "Names three European rivers";
const grades = (pass: boolean, reason: string) => ({
  json: { grades: [{ criterion: CRITERION, pass, reason }] },
});

type Result = {
  status: string;
  output: unknown;
  usage: { input_tokens: number; output_tokens: number; total_tokens: number; cost_usd: number | null };
  grades: { criterion: string; pass: boolean; reason: string }[] | null;
  grading_error: string | null;
  revisions: number;
};

async function send(id: string, json: Record<string, unknown>, token?: string): Promise<Result> {
  const res = await api(`/v1/conversations/${id}/messages`, {
    method: "POST",
    token,
    json: { stream: false, ...json },
  });
  expect(res.status).toBe(200);
  return (await res.json()) as Result;
}

describe("graded outcomes", () => {
  it("grades the result in a fresh context, sends a failed criterion back, and records the passing grade", async () => {
    const key = uniqueKey("grade");
    await script(key, [
      { text: "The Danube." },
      grades(false, "Only one river is named."),
      { text: "The Volga, the Danube and the Ural." },
      grades(true, "Three rivers are named."),
    ]);
    const id = await createConversation(key);
    const res = await api(`/v1/conversations/${id}/messages`, {
      method: "POST",
      json: { content: "Name rivers of Europe", success_criteria: [CRITERION] },
    });
    const events = await readSse(res, untilRunEnd);
    const graded = events
      .filter((e) => e.data.type === "CUSTOM" && e.data.name === "outcome_graded")
      .map((e) => e.data.value);
    expect(graded).toEqual([
      {
        passed: 0,
        total: 1,
        grades: [{ criterion: CRITERION, pass: false, reason: "Only one river is named." }],
        error: null,
        revision: 0,
      },
      {
        passed: 1,
        total: 1,
        grades: [{ criterion: CRITERION, pass: true, reason: "Three rivers are named." }],
        error: null,
        revision: 1,
      },
    ]);
    expect(events.at(-1)!.data).toMatchObject({
      type: "RUN_FINISHED",
      result: "The Volga, the Danube and the Ural.",
      grades: [{ criterion: CRITERION, pass: true }],
      revisions: 1,
    });
    const [, grader, revised] = await modelRequests(key);
    expect(grader).toMatchObject({
      response_format: { type: "json_schema", json_schema: { name: "grades" } },
    });
    expect(grader.tools ?? []).toEqual([]);
    expect(grader.messages.map((m) => m.role)).toEqual(["system", "user"]);
    const prompt = String(grader.messages[1].content);
    for (const part of ["Name rivers of Europe", CRITERION, "The Danube.", "<sources_read>"])
      expect(prompt).toContain(part);
    const back = revised.messages.at(-1)!;
    expect(back.role).toBe("user");
    expect(String(back.content)).toContain(`${CRITERION} — Only one river is named.`);
  });

  it("records a failing grade without another revision when none remain; the run still succeeds", async () => {
    const key = uniqueKey("grade-final");
    await script(key, [{ text: "The Danube." }, grades(false, "Only one river.")]);
    const id = await createConversation(key);
    const out = await send(id, { content: "rivers", success_criteria: [CRITERION], max_revisions: 0 });
    expect(out).toMatchObject({
      status: "succeeded",
      grades: [{ criterion: CRITERION, pass: false, reason: "Only one river." }],
      grading_error: null,
      revisions: 0,
    });
  });

  it("asks again once for an answer that is not valid JSON, then records a grading error, never a pass", async () => {
    const key = uniqueKey("grade-bad");
    await script(key, [{ text: "The Danube." }, { json: { verdict: "fine" } }, { json: "not an object" }]);
    const id = await createConversation(key);
    const out = await send(id, { content: "rivers", success_criteria: [CRITERION] });
    expect(out.status).toBe("succeeded");
    expect(out.grades).toEqual([{ criterion: CRITERION, pass: false, reason: out.grading_error }]);
    expect(out.grading_error).toMatch(/^Grading failed \(2 attempts\)/);
    expect(out.revisions).toBe(0);
    expect(await modelRequests(key)).toHaveLength(3);
  });

  it("grades with grader_model and counts the grader's tokens in the run's usage at its own price", async () => {
    const key = uniqueKey("graded-agent");
    const grader = uniqueKey("grader");
    const ws = await newWorkspaceKey("grading");
    const prices = await api("/v1/settings", {
      method: "PUT",
      token: ws.key,
      json: {
        model_prices: {
          [key]: { input_per_mtok: 1, output_per_mtok: 2 },
          [grader]: { input_per_mtok: 10, output_per_mtok: 20 },
        },
      },
    });
    expect(prices.status).toBe(200);
    await script(key, [
      { text: "The Volga, the Danube and the Ural.", usage: { prompt_tokens: 1000, completion_tokens: 100 } },
    ]);
    await script(grader, [
      { ...grades(true, "Three."), usage: { prompt_tokens: 3000, completion_tokens: 50 } },
    ]);
    const id = await createConversation(key, {}, ws.key);
    const out = await send(
      id,
      { content: "rivers", success_criteria: [CRITERION], grader_model: grader },
      ws.key,
    );
    expect(out.grades).toEqual([{ criterion: CRITERION, pass: true, reason: "Three." }]);
    expect(out.usage).toMatchObject({ input_tokens: 4000, output_tokens: 150, total_tokens: 4150 });
    // (1000×1 + 100×2)/1e6 + (3000×10 + 50×20)/1e6
    expect(out.usage.cost_usd).toBeCloseTo(0.0322, 10);
    expect(await modelRequests(key)).toHaveLength(1);
    expect(await modelRequests(grader)).toHaveLength(1);
  });
});
