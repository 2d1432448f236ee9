import { describe, expect, it } from "vitest";
import type { JobRun } from "../../../schemas/jobs";
import type { UsageReport } from "../../../schemas/usage";
import {
  api,
  createConversation,
  getConversation,
  modelRequests,
  newWorkspaceKey,
  runMessage,
  script,
  uniqueKey,
} from "../helpers";
import { createJob, settledRun } from "../job/jobs-helpers";

/** $1,000 per million tokens in and out: 1,000 tokens cost $1. */
const DEAR = { input_per_mtok: 1000, output_per_mtok: 1000 };

/** A model that calls create_task (1,000 tokens = $1) `calls` times, then answers. */
async function scriptSpender(key: string, calls: number) {
  await script(key, [
    ...Array.from({ length: calls }, (_, i) => ({
      tool_calls: [{ name: "create_task", arguments: { subject: `task ${i}` } }],
      usage: { prompt_tokens: 900, completion_tokens: 100 },
    })),
    { text: "all done", usage: { prompt_tokens: 900, completion_tokens: 100 } },
  ]);
}

async function pricedWorkspace(key: string, extra: Record<string, unknown> = {}) {
  const ws = await newWorkspaceKey("budget");
  const res = await api("/v1/settings", {
    method: "PUT",
    token: ws.key,
    json: { model_prices: { [key]: DEAR }, ...extra },
  });
  expect(res.status).toBe(200);
  return ws;
}

async function runToEnd(id: string, token: string) {
  return (await runMessage(id, "go", token)).map((m) => m.data);
}

describe("cost budgets", () => {
  it("stop a conversation at max_cost_usd before its next model turn, keeping its events and messages", async () => {
    const key = uniqueKey("budget-conv");
    const ws = await pricedWorkspace(key);
    await scriptSpender(key, 3);
    const id = await createConversation(key, { max_cost_usd: 1.5 }, ws.key);
    expect((await getConversation(id, ws.key)).max_cost_usd).toBe(1.5);
    const events = await runToEnd(id, ws.key);
    const end = events.at(-1) as {
      type: string;
      code: string;
      message: string;
      usage: { cost_usd: number }[];
    };
    expect(end.type).toBe("RUN_ERROR");
    expect(end.code).toBe("cost_limit");
    expect(end.message).toBe("The run stopped: this conversation has spent $2.00 of its max_cost_usd $1.50.");
    expect(end.usage[0].cost_usd).toBe(2);
    // Two turns ran ($1 each); the third was never asked for.
    expect(await modelRequests(key)).toHaveLength(2);
    expect(events.filter((e) => e.type === "TOOL_CALL_RESULT")).toHaveLength(2);
    const details = await getConversation(id, ws.key);
    expect(details.status).toBe("idle");
    const roles = (details.messages as { role: string }[]).map((m) => m.role);
    expect(roles).toEqual(["user", "assistant", "tool", "assistant", "tool"]);
    expect(details.usage).toMatchObject({ total_tokens: 2000, cost_usd: 2 });

    // The budget covers the conversation: the next run stops before its first turn.
    const again = await runToEnd(id, ws.key);
    expect(again.at(-1)).toMatchObject({ type: "RUN_ERROR", code: "cost_limit" });
    expect(await modelRequests(key)).toHaveLength(2);
  });

  it("stop at once when max_cost_usd is set for a model without a price", async () => {
    const key = uniqueKey("budget-unpriced");
    await scriptSpender(key, 1);
    const id = await createConversation(key, { max_cost_usd: 5 });
    const res = await api(`/v1/conversations/${id}/messages`, {
      method: "POST",
      json: { content: "go", stream: false },
    });
    expect(await res.json()).toMatchObject({
      status: "failed",
      error: { code: "cost_limit" },
      usage: { total_tokens: 0, cost_usd: null },
    });
    expect(await modelRequests(key)).toHaveLength(0);
  });

  it("stop every run of the workspace once the day's spend reaches daily_budget_usd", async () => {
    const key = uniqueKey("budget-daily");
    const ws = await pricedWorkspace(key, { daily_budget_usd: 1.5 });
    await scriptSpender(key, 0);
    const first = await runToEnd(await createConversation(key, {}, ws.key), ws.key);
    expect(first.at(-1)).toMatchObject({ type: "RUN_FINISHED" }); // $1 of $1.50

    await scriptSpender(key, 2);
    const second = await runToEnd(await createConversation(key, {}, ws.key), ws.key);
    expect(second.at(-1)).toMatchObject({
      type: "RUN_ERROR",
      code: "cost_limit",
      message: "The run stopped: the workspace has spent $2.00 today (UTC) of its daily_budget_usd $1.50.",
    });
    const third = await runToEnd(await createConversation(key, {}, ws.key), ws.key);
    expect(third.at(-1)).toMatchObject({ type: "RUN_ERROR", code: "cost_limit" });
    // One call for the first run, one for the second, none for the third.
    expect(await modelRequests(key)).toHaveLength(2);

    // Raising the budget lets runs go on.
    await api("/v1/settings", { method: "PUT", token: ws.key, json: { daily_budget_usd: 100 } });
    await scriptSpender(key, 0);
    expect((await runToEnd(await createConversation(key, {}, ws.key), ws.key)).at(-1)).toMatchObject({
      type: "RUN_FINISHED",
    });

    // The usage report counts it all: 4 runs, $3 over 3,000 tokens today.
    const report = (await (await api("/v1/usage", { token: ws.key })).json()) as UsageReport;
    expect(report.days).toHaveLength(30);
    expect(report.total).toMatchObject({ runs: 4, total_tokens: 3000, cost_usd: 3, unpriced_tokens: 0 });
    expect(report.days.at(-1)).toMatchObject({ day: report.to, runs: 4, cost_usd: 3 });
    expect(report.models).toEqual([expect.objectContaining({ model: key, runs: 4, cost_usd: 3 })]);
    expect(report.sources).toHaveLength(4);
    expect(report.sources_total).toBe(4);
  });

  it("fail a job run at its max_cost_usd with error.code cost_limit", async () => {
    const key = "gpt-4o-2024-11-20";
    await script(key, [
      {
        tool_calls: [{ name: "create_task", arguments: { subject: "expensive" } }],
        usage: { prompt_tokens: 100_000, completion_tokens: 10_000 },
      },
      { tool_calls: [{ name: "finish", arguments: { result: "never" } }] },
    ]);
    const job = await createJob({
      name: "Budgeted",
      prompt: "Report.",
      schedule: "0 7 * * *",
      model: key,
      max_cost_usd: 0.2,
    });
    expect(job.max_cost_usd).toBe(0.2);
    expect((await api(`/v1/jobs/${job.id}/run`, { method: "POST" })).status).toBe(202);
    const run: JobRun = await settledRun(job.id);
    // gpt-4o: 100,000 × $2.50 + 10,000 × $10 per million = $0.35
    expect(run).toMatchObject({ status: "failed", error: { code: "cost_limit" } });
    expect(run.tokens).toMatchObject({ total_tokens: 110_000, cost_usd: 0.35 });
    expect(run.result_path).toBeNull();
  });
});

describe("the usage report", () => {
  it("lists job runs under their job and exports CSV", async () => {
    const key = uniqueKey("usage-job");
    const ws = await pricedWorkspace(key);
    await script(key, [{ text: "hi", usage: { prompt_tokens: 300, completion_tokens: 200 } }]);
    const id = await createConversation(key, {}, ws.key);
    await runToEnd(id, ws.key);
    const csv = await api("/v1/usage?format=csv", { token: ws.key });
    expect(csv.status).toBe(200);
    expect(csv.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(csv.headers.get("content-disposition")).toMatch(/^attachment; filename="cirrus-usage-/);
    const lines = (await csv.text()).trim().split("\r\n");
    expect(lines[0]).toBe(
      "day,model,conversation_id,job_id,runs,input_tokens,output_tokens,cached_input_tokens,total_tokens,cost_usd,unpriced_tokens,browser_seconds",
    );
    expect(lines[1]).toMatch(new RegExp(`^\\d{4}-\\d{2}-\\d{2},${key},${id},,1,300,200,0,500,0.5,0,0$`));
  });

  it("refuses bad ranges and formats with 400", async () => {
    for (const [q, code] of [
      ["from=2026-12-05&to=2026-12-01", "invalid_range"],
      ["from=2024-01-01&to=2026-01-01", "invalid_range"],
      ["from=2026-13-01", "invalid_request"],
      ["to=yesterday", "invalid_request"],
      ["format=xml", "invalid_request"],
    ]) {
      const res = await api(`/v1/usage?${q}`);
      expect(res.status, q).toBe(400);
      expect(((await res.json()) as { error: { code: string } }).error.code, q).toBe(code);
    }
    expect((await api("/v1/usage", { token: null })).status).toBe(401);
  });
});
