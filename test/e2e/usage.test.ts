import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { signedIn } from "./support/signed-in";
import { ADMIN, cirrusApi, type Stack, startStack } from "./support/stack";

const DOCS = resolve(import.meta.dirname, "../../docs");
/** $1,000 per million tokens in, $2,000 out: a call of 1,000 + 500 tokens costs $2. */
const PRICED = "usage-priced";
/** No built-in price and no workspace price: its cost is null. */
const FREE = "usage-free";

let stack: Stack;
let sk: string;
let today: string;
let priced: string;
let free: string;
let job: { id: string; name: string };
const contexts: BrowserContext[] = [];

const day = (offset: number) =>
  new Date(Date.parse(`${today}T00:00:00Z`) + offset * 86_400_000).toISOString().slice(0, 10);

async function script(key: string, turns: unknown[]) {
  const res = await fetch(`${stack.model.url}/__scripts/${key}`, {
    method: "PUT",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ turns, repeat: true }),
  });
  expect(res.status).toBe(200);
}

async function conversation(model: string, title: string, runs: number): Promise<string> {
  const { id } = await cirrusApi<{ id: string }>(stack, "/v1/conversations", sk, {
    method: "POST",
    json: { model, title },
  });
  for (let i = 0; i < runs; i++) {
    const run = await cirrusApi<{ status: string }>(stack, `/v1/conversations/${id}/messages`, sk, {
      method: "POST",
      json: { content: `Question ${i + 1}`, stream: false },
    });
    expect(run.status).toBe("succeeded");
  }
  return id;
}

async function runJob(): Promise<{ id: string; name: string }> {
  const created = await cirrusApi<{ id: string; name: string }>(stack, "/v1/jobs", sk, {
    method: "POST",
    json: { name: "Nightly usage digest", prompt: "Summarise usage.", schedule: "0 3 * * *", model: PRICED },
  });
  await cirrusApi(stack, `/v1/jobs/${created.id}/run`, sk, { method: "POST" });
  for (let i = 0; i < 300; i++) {
    const { data } = await cirrusApi<{ data: { status: string }[] }>(
      stack,
      `/v1/jobs/${created.id}/runs`,
      sk,
    );
    if (data[0] && data[0].status !== "running") {
      expect(data[0].status).toBe("succeeded");
      return created;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error("the job run did not end");
}

/** The texts of a table's body rows, cell by cell. */
const rows = (page: Page, label: string) =>
  page
    .getByRole("table", { name: label })
    .locator("tbody tr")
    .evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll("td")].map((td) => td.textContent)));

async function usagePage(): Promise<Page> {
  const page = await signedIn(stack, sk, { contexts, viewport: { width: 1100, height: 900 } });
  await page.getByRole("link", { name: "Usage", exact: true }).click();
  await page.getByRole("heading", { name: "Usage" }).waitFor();
  await page.locator(".usage-total").waitFor();
  return page;
}

beforeAll(async () => {
  stack = await startStack();
  const ws = await cirrusApi<{ id: string }>(stack, "/v1/workspaces", ADMIN, {
    method: "POST",
    json: { name: "usage" },
  });
  sk = (
    await cirrusApi<{ key: string }>(stack, `/v1/workspaces/${ws.id}/keys`, ADMIN, {
      method: "POST",
      json: { name: "owner" },
    })
  ).key;
  await cirrusApi(stack, "/v1/settings", sk, {
    method: "PUT",
    json: { model_prices: { [PRICED]: { input_per_mtok: 1000, output_per_mtok: 2000 } } },
  });
  await script(PRICED, [{ text: "Priced answer.", usage: { prompt_tokens: 1000, completion_tokens: 500 } }]);
  await script(FREE, [{ text: "Free answer.", usage: { prompt_tokens: 300, completion_tokens: 200 } }]);
  today = new Date().toISOString().slice(0, 10);
  priced = await conversation(PRICED, "Priced research", 2);
  free = await conversation(FREE, "Unpriced chat", 1);
  job = await runJob();
});

afterEach(async () => {
  for (const ctx of contexts.splice(0)) await ctx.close().catch(() => {});
});

afterAll(async () => {
  await stack?.stop();
});

describe("the Usage page", () => {
  it("shows the day's totals, the chart and the rows per model, job and conversation", async () => {
    const page = await usagePage();
    expect(page.url()).toContain("#/usage/30d");
    expect(await page.getByRole("button", { name: "Last 30 days" }).getAttribute("aria-pressed")).toBe(
      "true",
    );
    expect(await page.locator(".usage-total").textContent()).toBe(
      "4 runs · 5,000 tokens · $6.00 + no price for 500 tokens",
    );
    // Every day of the range has a bar slot; today's bars tell the day's figures.
    const runBars = page.locator('svg.usage-chart [data-series="runs"] rect.bar');
    expect(await runBars.count()).toBe(30);
    expect(await page.locator(`[data-series="runs"] rect[data-day="${today}"] title`).textContent()).toBe(
      `${today}: 4 runs`,
    );
    expect(await page.locator(`[data-series="tokens"] rect[data-day="${today}"] title`).textContent()).toBe(
      `${today}: 5,000 tokens`,
    );
    expect(await page.locator(`[data-series="cost"] rect[data-day="${today}"] title`).textContent()).toBe(
      `${today}: $6.00 + 500 unpriced tokens`,
    );
    expect(await rows(page, "Per day")).toEqual([
      [today, "4", "3,300", "1,700", "0", "5,000", "$6.00 + no price for 500 tokens"],
    ]);
    expect(await rows(page, "Per model")).toEqual([
      [PRICED, "3", "3,000", "1,500", "0", "4,500", "$6.00"],
      [FREE, "1", "300", "200", "0", "500", "no price"],
    ]);
    expect(await rows(page, "Per job")).toEqual([
      ["Nightly usage digest", "1", "1,000", "500", "0", "1,500", "$2.00"],
    ]);
    const conversations = await rows(page, "Per conversation");
    expect(conversations.map((r) => [r[0], r[1], r[2], r[7]])).toEqual([
      ["Priced research", "—", "2", "$4.00"],
      ["Summarise usage.", "Nightly usage digest", "1", "$2.00"],
      ["Unpriced chat", "—", "1", "no price"],
    ]);
    if (process.env.CIRRUS_SCREENSHOTS)
      await page.screenshot({ path: resolve(DOCS, "usage.png"), fullPage: true });

    // Rows link to the conversation and to the job.
    await page
      .getByRole("table", { name: "Per conversation" })
      .getByRole("link", { name: "Unpriced chat" })
      .click();
    await page.waitForURL(`**/dashboard/#/conversations/${free}`);
    await page.goBack();
    await page
      .getByRole("table", { name: "Per job" })
      .getByRole("link", { name: "Nightly usage digest" })
      .click();
    await page.waitForURL(`**/dashboard/#/jobs/${job.id}`);
    await page.getByRole("heading", { name: "Nightly usage digest" }).waitFor();
  });

  it("changes the figures with the range and shows an empty range and a refused one", async () => {
    const page = await usagePage();
    await page.getByRole("button", { name: "Last 7 days" }).click();
    await page.waitForURL("**/dashboard/#/usage/7d");
    await page.locator('svg.usage-chart [data-series="runs"] rect.bar').nth(6).waitFor();
    expect(await page.locator('svg.usage-chart [data-series="runs"] rect.bar').count()).toBe(7);
    expect(await page.getByLabel("From (UTC)").inputValue()).toBe(day(-6));
    expect(await page.getByLabel("To (UTC)").inputValue()).toBe(today);

    // A week that ended yesterday: nothing ran.
    await page.getByLabel("From (UTC)").fill(day(-7));
    await page.getByLabel("To (UTC)").fill(day(-1));
    await page.getByRole("button", { name: "Show range" }).click();
    await page.getByText(`Nothing ran between ${day(-7)} and ${day(-1)} (UTC).`).waitFor();
    expect(await page.locator(".usage-total").count()).toBe(0);
    expect(page.url()).toContain(`#/usage/${day(-7)}..${day(-1)}`);

    // Back to a range holding today: the numbers return.
    await page.getByLabel("To (UTC)").fill(today);
    await page.getByRole("button", { name: "Show range" }).click();
    await page.locator(".usage-total").waitFor();
    expect(await page.locator(".usage-total").textContent()).toBe(
      "4 runs · 5,000 tokens · $6.00 + no price for 500 tokens",
    );
    expect(await page.locator('svg.usage-chart [data-series="runs"] rect.bar').count()).toBe(8);

    // From after to: the API's refusal is shown.
    await page.getByLabel("From (UTC)").fill(day(1));
    await page.getByRole("button", { name: "Show range" }).click();
    const refused = `from (${day(1)}) is after to (${today}). (400 invalid_range)`;
    expect(await page.getByRole("alert").textContent()).toBe(refused);
    // Exporting that range shows the CSV call's refusal too, above the report.
    await page.getByRole("button", { name: "Export CSV" }).click();
    await page.getByRole("alert").nth(1).waitFor();
    expect(await page.getByRole("alert").allTextContents()).toEqual([refused, refused]);
  });

  it("downloads exactly the API's CSV for the chosen range", async () => {
    const page = await usagePage();
    await page.getByRole("button", { name: "Last 7 days" }).click();
    await page.locator(".usage-total").waitFor();
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("button", { name: "Export CSV" }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(`cirrus-usage-${day(-6)}-to-${today}.csv`);
    const file = readFileSync((await download.path()) as string, "utf8");
    const api = await fetch(`${stack.cirrus}/v1/usage?from=${day(-6)}&to=${today}&format=csv`, {
      headers: { authorization: `Bearer ${sk}` },
    });
    expect(file).toBe(await api.text());
    const lines = file.trim().split("\r\n");
    expect(lines[0]).toBe(
      "day,model,conversation_id,job_id,runs,input_tokens,output_tokens,cached_input_tokens,total_tokens,cost_usd,unpriced_tokens,browser_seconds",
    );
    expect(lines.slice(1).map((l) => l.split(",").slice(0, 2).concat(l.split(",").slice(4)))).toEqual(
      expect.arrayContaining([
        [today, FREE, "1", "300", "200", "0", "500", "", "500", "0"],
        [today, PRICED, "2", "2000", "1000", "0", "3000", "4", "0", "0"],
        [today, PRICED, "1", "1000", "500", "0", "1500", "2", "0", "0"],
      ]),
    );
    expect(lines).toHaveLength(4);
    expect(file).toContain(`${today},${PRICED},${priced},,2,`);
    expect(file).toContain(`${today},${FREE},${free},,1,`);
  });
});
