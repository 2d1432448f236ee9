/**
 * First run and the dashboard playground, as a new user meets them: `npm run dev` in a fresh copy
 * of the project writes `.dev.vars` and prints a token; signing in with it, one starts a
 * conversation from the dashboard, chats with the (scripted) model, answers its question inline
 * and finds the conversation again by its title.
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { type Browser, chromium } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ScriptedModel, startScriptedModel } from "../support/scripted-model";
import { freePort } from "./support/wrangler-dev";

const ROOT = resolve(import.meta.dirname, "../..");
const MODEL = "playground";
/** `npm run dev` builds, sets up and starts wrangler: give a loaded machine time. */
const READY_MS = 150_000;
const CHROMIUM = "/usr/lib/chromium/chromium";
const FLAGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--no-first-run",
];

let copy: string;
let model: ScriptedModel;
let dev: ChildProcess;
let output = "";
let url: string;
let browser: Browser;

/** The tracked files of the project as they are now, in a new folder, sharing node_modules. */
function freshCopy(): string {
  const dir = mkdtempSync(join(tmpdir(), "cirrus-fresh-"));
  const files = execFileSync("git", ["ls-files", "-z"], { cwd: ROOT, encoding: "utf8" }).split("\0");
  for (const f of files.filter((f) => f && existsSync(join(ROOT, f)))) {
    mkdirSync(dirname(join(dir, f)), { recursive: true });
    cpSync(join(ROOT, f), join(dir, f), { preserveTimestamps: true });
  }
  symlinkSync(join(ROOT, "node_modules"), join(dir, "node_modules"));
  return dir;
}

/** Waits until `npm run dev` printed its banner; returns the dashboard URL and the token. */
async function banner(): Promise<{ dashboard: string; token: string }> {
  const deadline = Date.now() + READY_MS;
  while (Date.now() < deadline) {
    const dash = /dashboard: (\S+)/.exec(output);
    const token = /sign in: +(\S+)/.exec(output);
    if (dash && token) return { dashboard: dash[1], token: token[1] };
    if (dev.exitCode !== null) break;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`npm run dev printed no banner:\n${output.slice(-3000)}`);
}

beforeAll(async () => {
  copy = freshCopy();
  model = await startScriptedModel();
  const [port, inspector] = [await freePort(), await freePort()];
  dev = spawn(
    "npm",
    [
      "run",
      "dev",
      "--",
      "--port",
      String(port),
      "--ip",
      "127.0.0.1",
      "--inspector-port",
      String(inspector),
      "--persist-to",
      join(copy, ".state"),
      "--show-interactive-dev-session=false",
    ],
    {
      cwd: copy,
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
      env: {
        ...process.env,
        CIRRUS_SKIP_INSTALL: "1",
        CI: "1",
        OPENAI_API_KEY: "sk-playground",
        OPENAI_BASE_URL: `${model.url}/v1`,
        OPENAI_MODEL: MODEL,
      },
    },
  );
  dev.stdout?.on("data", (b: Buffer) => (output += b.toString()));
  dev.stderr?.on("data", (b: Buffer) => (output += b.toString()));
  url = (await banner()).dashboard;
  browser = await chromium.launch({ executablePath: CHROMIUM, args: FLAGS, headless: true });
}, READY_MS + 30_000);

afterAll(async () => {
  await browser?.close().catch(() => {});
  if (dev?.pid && dev.exitCode === null) {
    const exited = new Promise((r) => dev.once("exit", r));
    try {
      process.kill(-dev.pid, "SIGTERM");
    } catch {
      // gone already
    }
    const timer = setTimeout(() => {
      try {
        process.kill(-dev.pid!, "SIGKILL");
      } catch {
        // gone
      }
    }, 5000);
    await exited;
    clearTimeout(timer);
  }
  await model?.close();
  if (copy) rmSync(copy, { recursive: true, force: true });
});

describe("a fresh clone's first run", () => {
  it("writes .dev.vars with a new random token, which the printed banner shows and the API accepts", async () => {
    const vars = readFileSync(join(copy, ".dev.vars"), "utf8");
    const token = /^ADMIN_TOKEN=(.+)$/m.exec(vars)?.[1] ?? "";
    expect(token).toMatch(/^[A-Za-z0-9_-]{40,}$/);
    expect(vars).not.toContain("change-me");
    expect(vars).toMatch(/^SECRETS_KEY=[A-Za-z0-9_-]{40,}$/m);
    expect(vars).toContain(`OPENAI_BASE_URL=${model.url}/v1`);
    const { token: printed } = await banner();
    expect(printed).toBe(token);
    expect(output).toContain(`model:     ${MODEL} at ${model.url}/v1`);
    const api = new URL(url).origin;
    expect(
      (await fetch(`${api}/v1/conversations`, { headers: { authorization: `Bearer ${token}` } })).status,
    ).toBe(200);
    expect(
      (await fetch(`${api}/v1/conversations`, { headers: { authorization: "Bearer change-me" } })).status,
    ).toBe(401);
  });

  it("lets one sign in with the printed token, start a conversation, chat, answer inline and find it", async () => {
    const put = await fetch(`${model.url}/__scripts/${MODEL}`, {
      method: "PUT",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        turns: [
          {
            tool_calls: [
              { name: "ask_user", arguments: { question: "Which city?", options: ["Lisbon", "Porto"] } },
            ],
          },
          { text: "Porto it is: three days of port cellars and tiles." },
        ],
      }),
    });
    expect(put.status).toBe(200);
    const { token } = await banner();
    const page = await (await browser.newContext({ viewport: { width: 390, height: 800 } })).newPage();
    await page.goto(url);
    await page.getByLabel("Workspace secret key").fill(token);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.getByRole("button", { name: "New conversation" }).click();
    await page.getByLabel("Title", { exact: true }).fill("Weekend trip planning");
    await page.getByLabel("Instructions").fill("Be brief.");
    await page.getByRole("button", { name: "Start" }).click();
    await page.getByRole("heading", { name: "Weekend trip planning" }).waitFor();

    const box = page.getByLabel("Message");
    await box.fill("Plan a weekend");
    await box.press("Shift+Enter");
    await box.pressSequentially("in Portugal");
    expect(await box.inputValue()).toBe("Plan a weekend\nin Portugal");
    await box.press("Enter");
    await page.getByRole("button", { name: "Porto" }).click();
    await page.locator(".msg.assistant", { hasText: "Porto it is" }).waitFor();
    expect(await page.locator(".msg.user").first().textContent()).toContain("in Portugal");
    expect(await box.inputValue()).toBe("");
    // The tool call is collapsed until opened, then shows its arguments.
    const tool = page.locator(".tool", { hasText: "ask_user" });
    expect(await tool.locator(".tool-args").isVisible()).toBe(false);
    await tool.locator("summary").click();
    expect(await tool.locator(".tool-args").textContent()).toContain("Which city?");

    const sent = (await (await fetch(`${model.url}/__scripts/${MODEL}/requests`)).json()) as {
      requests: { messages: { role: string; content: unknown }[] }[];
    };
    expect(sent.requests).toHaveLength(2);
    expect(String(sent.requests[0].messages[0].content)).toContain("Be brief.");
    expect(JSON.stringify(sent.requests[1].messages)).toContain("Porto");

    await page.getByRole("link", { name: "Conversations" }).first().click();
    await page.getByLabel("Search titles").fill("weekend trip");
    await page.getByRole("link", { name: "Weekend trip planning" }).waitFor();
    await page.getByLabel("Search titles").fill("no such title");
    await page.getByText("No conversation title contains").waitFor();
  });
});
