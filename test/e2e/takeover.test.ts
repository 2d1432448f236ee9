import type { BrowserContext, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { signedIn } from "./support/signed-in";
import {
  cirrusApi,
  type HostServer,
  hostPage,
  newWorkspace,
  type Stack,
  scriptWidget,
  startHost,
  startStack,
} from "./support/stack";
import { openWidget, sendMessage } from "./support/widget-page";

/** The page handed over: a button over the top half, a text field over the bottom half. */
const SITE = `<!doctype html><title>Sign in</title><body style="margin:0">
<button id="b" style="position:fixed;left:0;top:0;width:100vw;height:50vh">Press</button>
<input id="f" style="position:fixed;left:0;top:50vh;width:100vw;height:50vh;font-size:40px">
<p id="log" style="display:none"></p><script>
document.getElementById("b").addEventListener("click", (e) => { document.getElementById("log").textContent += "click:" + e.isTrusted + " "; });
</script></body>`;

let stack: Stack;
let site: HostServer;
let host: HostServer;
let sk: string;
let pk: string;
const contexts: BrowserContext[] = [];

const takeoverTurns = (url: string) => [
  { tool_calls: [{ name: "open_tab", arguments: { url } }] },
  { tool_calls: [{ name: "request_takeover", arguments: { reason: "Please sign in for me." } }] },
  { text: "Thanks, signed in." },
];

/** What the handed-over page recorded, read through the API. */
async function pageState(conv: string): Promise<{ log: string; field: string }> {
  const res = await cirrusApi<{ result: { result: { log: string; field: string } } }>(
    stack,
    `/v1/conversations/${conv}/tools/execute_script`,
    sk,
    {
      method: "POST",
      json: {
        arguments: {
          target: "page",
          code: "({ log: document.getElementById('log').textContent, field: document.getElementById('f').value })",
        },
      },
    },
  );
  return res.result.result;
}

async function waitFor<T>(check: () => Promise<T | null | false>, ms = 20_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await check();
    if (v) return v;
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Clicks the live frame's top half, then its bottom half and types there; checks the remote page. */
async function drive(page: Page, frame: ReturnType<Page["locator"]>, conv: string): Promise<void> {
  await page.waitForFunction(
    (el) => ((el as HTMLImageElement).naturalWidth ?? 0) > 0,
    await frame.elementHandle(),
    { timeout: 30_000 },
  );
  const box = (await frame.boundingBox())!;
  await page.mouse.click(box.x + box.width / 2, box.y + box.height * 0.25);
  await waitFor(async () => (await pageState(conv)).log.includes("click:true"));
  await page.mouse.click(box.x + box.width / 2, box.y + box.height * 0.75);
  await page.keyboard.type("erin");
  await waitFor(async () => (await pageState(conv)).field === "erin");
}

beforeAll(async () => {
  stack = await startStack();
  site = await startHost();
  site.setPage(SITE);
  host = await startHost();
  ({ sk, pk } = await newWorkspace(stack, "handover", host.origin));
  host.setPage(hostPage(stack.cirrus, { key: pk }));
});

afterEach(async () => {
  for (const ctx of contexts.splice(0)) await ctx.close().catch(() => {});
});

afterAll(async () => {
  await site?.close();
  await host?.close();
  await stack?.stop();
});

describe("a take-over in the live view", () => {
  it("can be clicked and typed into from the dashboard's conversation view, and Done resumes the run", async () => {
    const key = "takeover-dashboard";
    await fetch(`${stack.model.url}/__scripts/${key}`, {
      method: "PUT",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ turns: takeoverTurns(`${site.origin}/`) }),
    });
    const conv = await cirrusApi<{ id: string }>(stack, "/v1/conversations", sk, {
      method: "POST",
      json: { model: key },
    });
    const run = cirrusApi<{ output: string }>(stack, `/v1/conversations/${conv.id}/messages`, sk, {
      method: "POST",
      json: { content: "Sign in to the site", stream: false },
    });
    await waitFor(async () => {
      const d = await cirrusApi<{ status: string }>(stack, `/v1/conversations/${conv.id}`, sk);
      return d.status === "waiting_for_user";
    }, 30_000);
    const page = await signedIn(stack, sk, { contexts, viewport: { width: 1100, height: 900 } });
    await page.goto(`${stack.cirrus}/dashboard/#/conversations/${conv.id}`);
    const panel = page.locator(".takeover-slot .takeover");
    await panel.waitFor({ timeout: 30_000 });
    expect(await panel.textContent()).toContain("Please sign in for me.");
    await drive(page, panel.locator("img.live-frame"), conv.id);
    await panel.getByRole("button", { name: /Done/ }).click();
    expect((await run).output).toBe("Thanks, signed in.");
    await page.locator(".takeover-slot .takeover").waitFor({ state: "detached", timeout: 15_000 });
  });

  it("can be clicked and typed into from the widget, on the visitor's own conversation", async () => {
    await scriptWidget(stack.model, takeoverTurns(`${site.origin}/`));
    const ctx = await stack.browser.newContext({ viewport: { width: 1100, height: 900 } });
    contexts.push(ctx);
    const page = await ctx.newPage();
    await page.goto(host.origin);
    await openWidget(page);
    await sendMessage(page, "Sign in to the site for me");
    const panel = page.locator(".takeover-slot .takeover");
    await panel.waitFor({ timeout: 30_000 });
    expect(await panel.textContent()).toContain("Please sign in for me.");
    const session = await page.evaluate(() => {
      const raw = Object.keys(localStorage).find((k) => k.startsWith("cirrus-widget:"));
      return raw ? (JSON.parse(localStorage.getItem(raw)!) as { conversation_id: string }) : null;
    });
    await drive(page, panel.locator("img.live-frame"), session!.conversation_id);
    await panel.getByRole("button", { name: "Done" }).click();
    await page.locator(".msg", { hasText: "Thanks, signed in." }).first().waitFor({ timeout: 20_000 });
    await panel.waitFor({ state: "detached", timeout: 15_000 });
  });
});
