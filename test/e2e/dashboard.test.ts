import { mkdirSync } from "node:fs";
import { resolve } from "node:path";
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { signedIn } from "./support/signed-in";
import { ADMIN, cirrusApi, type Stack, startHost, startStack } from "./support/stack";

const DOCS = resolve(import.meta.dirname, "../../docs");
const SCRIPT = "dashboard-replay";

let stack: Stack;
let sk: string;
let conversationId: string;
const contexts: BrowserContext[] = [];

/** Runs one conversation through the API: a task, a question answered "Pro", an answer. */
async function recordConversation(): Promise<string> {
  const put = await fetch(`${stack.model.url}/__scripts/${SCRIPT}`, {
    method: "PUT",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      turns: [
        { tool_calls: [{ name: "create_task", arguments: { subject: "Pick a plan" } }] },
        {
          tool_calls: [
            { name: "ask_user", arguments: { question: "Which plan?", options: ["Basic", "Pro"] } },
          ],
        },
        { text: "Going with **Pro**." },
      ],
    }),
  });
  expect(put.status).toBe(200);
  const conv = await cirrusApi<{ id: string }>(stack, "/v1/conversations", sk, {
    method: "POST",
    json: { model: SCRIPT },
  });
  const run = cirrusApi(stack, `/v1/conversations/${conv.id}/messages`, sk, {
    method: "POST",
    json: { content: "Choose a plan for me", stream: false },
  });
  let question: { question_id: string } | null = null;
  for (let i = 0; i < 200 && !question; i++) {
    const details = await cirrusApi<{ pending_question: { question_id: string } | null }>(
      stack,
      `/v1/conversations/${conv.id}`,
      sk,
    );
    question = details.pending_question;
    if (!question) await new Promise((r) => setTimeout(r, 50));
  }
  expect(question).not.toBeNull();
  await cirrusApi(stack, `/v1/conversations/${conv.id}/answer`, sk, {
    method: "POST",
    json: { question_id: question!.question_id, answer: "Pro" },
  });
  await run;
  return conv.id;
}

beforeAll(async () => {
  stack = await startStack();
  const ws = await cirrusApi<{ id: string }>(stack, "/v1/workspaces", ADMIN, {
    method: "POST",
    json: { name: "dash" },
  });
  sk = (
    await cirrusApi<{ key: string }>(stack, `/v1/workspaces/${ws.id}/keys`, ADMIN, {
      method: "POST",
      json: { name: "owner" },
    })
  ).key;
  conversationId = await recordConversation();
});

afterEach(async () => {
  for (const ctx of contexts.splice(0)) await ctx.close().catch(() => {});
});

afterAll(async () => {
  await stack?.stop();
});

describe("the dashboard", () => {
  it("is served with headers that forbid framing and foreign scripts", async () => {
    const res = await fetch(`${stack.cirrus}/dashboard/`);
    expect(res.status).toBe(200);
    expect(res.headers.get("x-frame-options")).toBe("DENY");
    expect(res.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
  });

  it("refuses a wrong key and keeps the key out of localStorage", async () => {
    const ctx = await stack.browser.newContext();
    contexts.push(ctx);
    const page = await ctx.newPage();
    await page.goto(`${stack.cirrus}/dashboard/`);
    await page.getByLabel("Workspace secret key").fill("sk_nope_aaaaaaaaaaaaaaaaaaaaaaaa");
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.getByRole("alert").waitFor();
    expect(await page.getByRole("alert").textContent()).toContain("401");
    expect(await storageKeys(page)).toEqual({ session: null, local: 0 });
  });

  it("lists conversations and replays one with its tool calls and question", async () => {
    const page = await signedIn(stack, sk, { contexts });
    // The list names it by the start of its first message.
    await page.getByRole("link", { name: "Choose a plan for me" }).click();
    await page.waitForURL(`**/dashboard/#/conversations/${conversationId}`);
    await page.locator(".msg.assistant", { hasText: "Going with Pro." }).waitFor();
    const tools = await page.locator(".tool .tool-name").allTextContents();
    expect(tools).toEqual(["create_task", "ask_user"]);
    expect(await page.locator(".tool[data-status=done]").count()).toBe(2);
    expect(await page.locator(".tool-args").first().textContent()).toContain("Pick a plan");
    expect(await page.locator(".question-row").allTextContents()).toEqual([
      "ask_user: Which plan? [Basic | Pro]",
      "answer: Pro",
    ]);
    expect(await page.locator(".msg.user").textContent()).toContain("Choose a plan for me");
    expect(await page.locator(".card li").allTextContents()).toEqual(["Pick a plan — pending"]);
    expect(await storageKeys(page)).toEqual({ session: sk, local: 0 });
    if (process.env.CIRRUS_SCREENSHOTS) {
      mkdirSync(DOCS, { recursive: true });
      await page.screenshot({ path: resolve(DOCS, "dashboard.png"), fullPage: true });
    }
  });

  it("shows the browser tabs of a running conversation with live screenshots", async () => {
    const site = await startHost();
    site.setPage(
      '<!doctype html><title>Price list <script>x</script></title><body style="background:#0b5fff"><h1>Prices</h1>',
    );
    const key = "dashboard-tabs";
    await fetch(`${stack.model.url}/__scripts/${key}`, {
      method: "PUT",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        turns: [
          { tool_calls: [{ name: "open_tab", arguments: { url: `${site.origin}/` } }] },
          { text: "Looked.", hang: true },
        ],
      }),
    });
    const conv = await cirrusApi<{ id: string }>(stack, "/v1/conversations", sk, {
      method: "POST",
      json: { model: key },
    });
    const run = cirrusApi(stack, `/v1/conversations/${conv.id}/messages`, sk, {
      method: "POST",
      json: { content: "Look at the price list", stream: false },
    });
    try {
      const page = await signedIn(stack, sk, { contexts });
      await page.goto(`${stack.cirrus}/dashboard/#/conversations/${conv.id}`);
      const tab = page.locator("figure.tab").first();
      await tab.waitFor({ timeout: 30_000 });
      expect(await tab.locator("figcaption").textContent()).toContain("Price list <script>x</script>");
      expect(await tab.locator("figcaption").textContent()).toContain(`${site.origin}/`);
      await page.waitForFunction(
        () => ((document.querySelector("figure.tab img") as HTMLImageElement | null)?.naturalWidth ?? 0) > 0,
        undefined,
        { timeout: 20_000 },
      );
      expect(await page.locator("figure.tab script").count()).toBe(0);
      if (process.env.CIRRUS_SCREENSHOTS)
        await page.screenshot({ path: resolve(DOCS, "dashboard-tabs.png"), fullPage: true });
    } finally {
      await fetch(`${stack.model.url}/__scripts/${key}/release`, { method: "POST" });
      await run.catch(() => {});
      await site.close();
    }
  });

  it("saves the agent, search and widget settings and reads them back", async () => {
    const page = await signedIn(stack, sk, { contexts });
    await page.getByRole("link", { name: "Settings", exact: true }).click();
    await page.getByLabel("Instructions").fill("Answer like a pirate.");
    await page.getByLabel("Model", { exact: true }).fill("pirate-model");
    await page.getByLabel("Tools allowed").fill("web_fetch, create_task");
    await page.getByLabel("Time zone").fill("Europe/Lisbon");
    await page.getByLabel("Search engine").selectOption("brave");
    await page.getByLabel("brave api key").fill("BSA-dashboard-secret");
    await page.getByLabel("Widget title").fill("Pirate help");
    await page.getByLabel("Allowed domains").fill("example.com\ndocs.example.org");
    await page.getByLabel("Model can view images").selectOption("false");
    await page.getByLabel("Widget language").selectOption("es");
    await page.getByRole("button", { name: "Save settings" }).click();
    await page.getByText("Settings saved.").waitFor();
    await page.reload();
    await page.getByLabel("Instructions").waitFor();
    expect(await page.getByLabel("Instructions").inputValue()).toBe("Answer like a pirate.");
    expect(await page.getByLabel("Model", { exact: true }).inputValue()).toBe("pirate-model");
    expect(await page.getByLabel("Tools allowed").inputValue()).toBe("web_fetch, create_task");
    expect(await page.getByLabel("Search engine").inputValue()).toBe("brave");
    expect(await page.getByLabel("brave api key").inputValue()).toBe("");
    expect(await page.getByLabel("brave api key").getAttribute("placeholder")).toContain("set");
    expect(await page.getByLabel("Widget title").inputValue()).toBe("Pirate help");

    const saved = await cirrusApi<Record<string, Record<string, unknown>>>(stack, "/v1/settings", sk);
    expect(saved.agent).toEqual({
      model: "pirate-model",
      instructions: "Answer like a pirate.",
      allowed_tools: ["web_fetch", "create_task"],
      timezone: "Europe/Lisbon",
    });
    expect(saved.search).toMatchObject({ engine: "brave", brave_api_key: { set: true } });
    expect(JSON.stringify(saved)).not.toContain("BSA-dashboard-secret");
    expect(saved.widget).toMatchObject({ title: "Pirate help", language: "es", color: null });
    expect(saved.allowed_domains).toEqual(["example.com", "docs.example.org"]);
    expect(saved.model_vision).toBe(false);
    expect(await page.getByLabel("Allowed domains").inputValue()).toBe("example.com\ndocs.example.org");

    // A bad value is refused with the API's message and nothing changes.
    await page.getByLabel("Widget color").fill("url(javascript:alert(1))");
    await page.getByRole("button", { name: "Save settings" }).click();
    await page.getByRole("alert").filter({ hasText: "CSS colour" }).waitFor();
    const after = await cirrusApi<{ widget: { color: unknown } }>(stack, "/v1/settings", sk);
    expect(after.widget.color).toBeNull();
    await cirrusApi(stack, "/v1/settings", sk, {
      method: "PUT",
      json: {
        agent: { model: null, instructions: null, allowed_tools: null },
        search: { engine: "duckduckgo" },
      },
    });
  });

  it("browses, uploads, downloads and deletes workspace files", async () => {
    await fetch(`${stack.cirrus}/v1/files/reports/weekly/summary.md`, {
      method: "PUT",
      headers: { authorization: `Bearer ${sk}`, "content-type": "text/markdown" },
      body: "# Weekly summary\n",
    });
    const page = await signedIn(stack, sk, { contexts });
    await page.getByRole("link", { name: "Files", exact: true }).click();
    await page.getByRole("link", { name: "reports/" }).click();
    await page.getByRole("link", { name: "weekly/" }).click();
    const row = page.locator('tr[data-path="reports/weekly/summary.md"]');
    await row.waitFor();
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      row.getByRole("button", { name: "Download" }).click(),
    ]);
    expect(download.suggestedFilename()).toBe("summary.md");
    const stream = await download.createReadStream();
    let text = "";
    for await (const chunk of stream) text += chunk.toString();
    expect(text).toBe("# Weekly summary\n");

    await page.getByLabel("Upload to this folder").setInputFiles({
      name: "notes <b>.txt",
      mimeType: "text/plain",
      buffer: Buffer.from("uploaded from the dashboard"),
    });
    await page.getByRole("button", { name: "Upload", exact: true }).click();
    await page.getByText("Uploaded.").waitFor();
    await page.locator('tr[data-path="reports/weekly/notes <b>.txt"]').waitFor();
    const uploaded = await fetch(
      `${stack.cirrus}/v1/files/reports/weekly/${encodeURIComponent("notes <b>.txt")}`,
      {
        headers: { authorization: `Bearer ${sk}` },
      },
    );
    expect(await uploaded.text()).toBe("uploaded from the dashboard");

    page.once("dialog", (d) => d.accept());
    await row.getByRole("button", { name: "Delete" }).click();
    await page.getByText("reports/weekly/summary.md deleted.").waitFor();
    await row.waitFor({ state: "detached" });
    const gone = await fetch(`${stack.cirrus}/v1/files/reports/weekly/summary.md`, {
      headers: { authorization: `Bearer ${sk}` },
    });
    expect(gone.status).toBe(404);
  });

  it("creates a publishable key, edits its allowed origins and revokes it", async () => {
    const page = await signedIn(stack, sk, { contexts });
    await page.getByRole("link", { name: "Keys", exact: true }).click();
    await page.getByLabel("Name").fill("Shop widget");
    await page.getByLabel("Type").selectOption("publishable");
    await page.getByLabel("Allowed origins (publishable keys)").fill("https://shop.example");
    await page.getByRole("button", { name: "Create key" }).click();
    const shown = await page.locator(".new-key").textContent();
    expect(shown).toMatch(/^pk_ws-/);
    expect(await page.locator(".notice pre").nth(1).textContent()).toContain(
      `/widget.js" data-key="${shown}"`,
    );

    const origins = page.getByLabel("Allowed origins of Shop widget");
    expect(await origins.inputValue()).toBe("https://shop.example");
    await origins.fill("https://shop.example\nhttps://m.shop.example");
    await page.getByRole("button", { name: "Save origins" }).click();
    await page.getByText("Origins of Shop widget saved.").waitFor();
    const keys = await cirrusApi<{ data: { name: string; id: string; allowed_origins: string[] }[] }>(
      stack,
      "/v1/keys",
      sk,
    );
    const created = keys.data.find((k) => k.name === "Shop widget")!;
    expect(created.allowed_origins).toEqual(["https://shop.example", "https://m.shop.example"]);

    const row = page.locator(`tr[data-key-id="${created.id}"]`);
    await row.getByRole("button", { name: "Revoke" }).click();
    await row.getByRole("button", { name: "Confirm revoke" }).click();
    await page.getByText("Shop widget revoked.").waitFor();
    await row.waitFor({ state: "detached" });
    const after = await cirrusApi<{ data: { id: string }[] }>(stack, "/v1/keys", sk);
    expect(after.data.map((k) => k.id)).not.toContain(created.id);
  });

  it("creates a job, runs it now and opens its result and conversation from the run ledger", async () => {
    const key = "dashboard-job";
    await fetch(`${stack.model.url}/__scripts/${key}`, {
      method: "PUT",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        turns: [{ tool_calls: [{ name: "finish", arguments: { result: "# Morning brief\n\nAll quiet." } }] }],
      }),
    });
    const page = await signedIn(stack, sk, { contexts });
    await page.getByRole("link", { name: "Jobs", exact: true }).click();
    await page.getByRole("heading", { name: "Jobs", exact: true }).waitFor();
    await page.getByLabel("Name").fill("Morning brief");
    await page.getByLabel("Schedule (cron)").fill("not a cron");
    await page.getByLabel("Time zone").fill("Europe/Berlin");
    await page.getByLabel("Model", { exact: true }).fill(key);
    await page.getByLabel("Fallback models (comma-separated)").fill(" backup-a, ,backup-b ");
    await page.getByLabel("Prompt").fill("Summarise the news.");
    await page.getByRole("button", { name: "Create job" }).click();
    await page.getByRole("alert").filter({ hasText: "invalid_schedule" }).waitFor();

    await page.getByLabel("Schedule (cron)").fill("0 7 * * 1-5");
    await page.getByRole("button", { name: "Create job" }).click();
    await page.getByRole("heading", { name: "Morning brief" }).waitFor();
    expect(await page.getByText("in Europe/Berlin").count()).toBe(1);
    const jobs = await cirrusApi<{ data: { name: string; fallback_models: string[] | null }[] }>(
      stack,
      "/v1/jobs",
      sk,
    );
    expect(jobs.data.find((j) => j.name === "Morning brief")?.fallback_models).toEqual([
      "backup-a",
      "backup-b",
    ]);
    await page.getByRole("button", { name: "Run now" }).click();
    const row = page.locator('tr[data-run="1"]');
    for (
      let i = 0;
      i < 60 && (await row.getAttribute("data-status", { timeout: 500 }).catch(() => null)) !== "succeeded";
      i++
    ) {
      await new Promise((r) => setTimeout(r, 250));
      await page.getByRole("button", { name: "Refresh" }).click();
    }
    expect(await row.getAttribute("data-status")).toBe("succeeded");
    if (process.env.CIRRUS_SCREENSHOTS)
      await page.screenshot({ path: resolve(DOCS, "jobs.png"), fullPage: true });
    const result = row.getByRole("button", { name: /^reports\/morning-brief\// });
    const [download] = await Promise.all([page.waitForEvent("download"), result.click()]);
    let text = "";
    for await (const chunk of await download.createReadStream()) text += chunk.toString();
    expect(text).toContain("# Morning brief");

    await row.getByRole("link", { name: "conversation" }).click();
    await page.locator(".msg.user", { hasText: "Summarise the news." }).waitFor();
  });
});

/** Where the dashboard keeps the key: sessionStorage only. */
function storageKeys(page: Page): Promise<{ session: string | null; local: number }> {
  return page.evaluate(() => ({
    session: sessionStorage.getItem("cirrus-dashboard-key"),
    local: localStorage.length,
  }));
}
