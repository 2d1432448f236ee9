import { mkdirSync } from "node:fs";
import { resolve } from "node:path";
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  cirrusApi,
  type HostServer,
  hostPage,
  newWorkspace,
  releaseWidget,
  type Stack,
  scriptWidget,
  startHost,
  startStack,
  widgetRequests,
} from "./support/stack";
import { startTcpProxy } from "./support/tcp-proxy";
import {
  openWidget,
  recordAssistantTexts,
  sendMessage,
  storedSession,
  waitForWidgetText,
  widgetTexts,
} from "./support/widget-page";

const DOCS = resolve(import.meta.dirname, "../../docs");
const HOSTILE_TITLE = `<img src=x onerror="window.__pwned='title'">Support`;

let stack: Stack;
let host: HostServer;
let evilHost: HostServer;
let pk: string;
let sk: string;
const contexts: BrowserContext[] = [];

/** The host page most tests use. */
const defaultPage = () =>
  hostPage(stack.cirrus, { key: pk, color: "#0f766e", greeting: "Welcome to the shop!" });

async function newPage(viewport = { width: 1100, height: 800 }): Promise<Page> {
  const ctx = await stack.browser.newContext({ viewport });
  contexts.push(ctx);
  const page = await ctx.newPage();
  await page.goto(host.origin);
  return page;
}

beforeAll(async () => {
  stack = await startStack();
  host = await startHost();
  evilHost = await startHost();
  ({ sk, pk } = await newWorkspace(stack, "shop", host.origin));
  host.setPage(defaultPage());
  evilHost.setPage(hostPage(stack.cirrus, { key: pk }));
});

afterEach(async () => {
  for (const ctx of contexts.splice(0)) await ctx.close().catch(() => {});
});

afterAll(async () => {
  await host?.close().catch(() => {});
  await evilHost?.close().catch(() => {});
  await stack?.stop();
});

describe("the widget embedded on another origin", () => {
  it("streams the answer as Markdown while it is written, isolated from the host page's CSS", async () => {
    await scriptWidget(stack.model, [
      {
        text: "Hello **there**! Streaming *works*, see [the docs](https://example.com/docs).",
        chunks: 8,
        chunk_delay_ms: 120,
      },
    ]);
    const page = await newPage();
    await openWidget(page);
    expect(await widgetTexts(page, ".greeting")).toEqual(["Welcome to the shop!"]);
    await recordAssistantTexts(page);
    await sendMessage(page, "Hi, who are you?");
    await waitForWidgetText(page, ".msg.assistant", "Streaming works, see the docs.");

    expect(await widgetTexts(page, ".msg.user")).toEqual(["You: Hi, who are you?"]);
    expect(await widgetTexts(page, ".msg.pending")).toEqual([]);
    expect(await widgetTexts(page, ".msg.assistant strong")).toEqual(["there"]);
    expect(await widgetTexts(page, ".msg.assistant em")).toEqual(["works"]);
    const link = page.locator(".msg.assistant a");
    expect(await link.getAttribute("href")).toBe("https://example.com/docs");
    expect(await link.getAttribute("rel")).toContain("noopener");
    expect(await link.getAttribute("target")).toBe("_blank");
    // Seen in pieces: at least two partial texts before the whole answer.
    const texts = await page.evaluate(() => (window as unknown as { __texts: string[] }).__texts);
    const final = "Hello there! Streaming works, see the docs.";
    expect(texts.at(-1)).toBe(final);
    expect(texts.filter((t) => t.length < final.length).length).toBeGreaterThanOrEqual(2);
    // The answer is announced to screen readers; the host's `button{color:red!important}` does not reach us.
    await waitForWidgetText(page, ".sr-only[aria-live=polite]", final);
    const sendColour = await page.locator("button.send").evaluate((b) => getComputedStyle(b).color);
    expect(sendColour).toBe("rgb(255, 255, 255)");
    const spacing = await page.locator(".panel").evaluate((p) => getComputedStyle(p).letterSpacing);
    expect(spacing).toBe("normal");
    // Keyboard: Escape closes the panel and gives focus back to the launcher.
    await page.keyboard.press("Escape");
    expect(await page.locator(".launcher").getAttribute("aria-expanded")).toBe("false");
    const focused = await page.evaluate(
      () => document.querySelector("[data-cirrus-widget]")?.shadowRoot?.activeElement?.className,
    );
    expect(focused).toBe("launcher");
  });

  it("answers ask_user questions with an option button and with checkboxes, under a countdown", async () => {
    await scriptWidget(stack.model, [
      {
        text: "Happy to help. Two quick questions first.",
        tool_calls: [
          {
            id: "call_one",
            name: "ask_user",
            arguments: { question: "Which plan?", options: ["Basic", "Pro"] },
          },
        ],
      },
      {
        tool_calls: [
          {
            id: "call_many",
            name: "ask_user",
            arguments: { question: "Which extras?", options: ["Support", "Backups", "SSO"], multiple: true },
          },
        ],
      },
      { text: "Pro with Support and SSO it is." },
    ]);
    const page = await newPage();
    await openWidget(page);
    await sendMessage(page, "Help me choose");
    await waitForWidgetText(page, ".question", "Which plan?");
    await waitForWidgetText(page, ".msg.assistant", "Happy to help. Two quick questions first.");
    const [countdown] = await widgetTexts(page, ".countdown");
    expect(countdown).toMatch(/^[45]:\d\d$/);
    await page.locator(".q-option", { hasText: "Pro" }).click();

    await waitForWidgetText(page, ".question", "Which extras?");
    await page.locator(".q-checks label", { hasText: "Support" }).locator("input").check();
    await page.locator(".q-checks label", { hasText: "SSO" }).locator("input").check();
    if (process.env.CIRRUS_SCREENSHOTS) {
      mkdirSync(DOCS, { recursive: true });
      await page.screenshot({ path: resolve(DOCS, "widget.png") });
    }
    await page.locator(".q-checks .q-submit").click();
    await waitForWidgetText(page, ".msg.assistant", "Pro with Support and SSO it is.");
    expect(await widgetTexts(page, ".question")).toEqual([]);
    expect(await widgetTexts(page, ".tool .tool-name")).toEqual(["ask_user", "ask_user"]);

    const requests = await widgetRequests(stack.model);
    const toolResults = requests
      .at(-1)!
      .messages.filter((m) => m.role === "tool")
      .map((m) => String(m.content));
    expect(toolResults[0]).toContain("Pro");
    expect(toolResults[1]).toContain("Support");
    expect(toolResults[1]).toContain("SSO");
    expect(toolResults[1]).not.toContain("Backups");
  });

  it("continues the conversation after a reload mid-run, without duplicates", async () => {
    await scriptWidget(stack.model, [
      { tool_calls: [{ name: "create_task", arguments: { subject: "Compare plans" } }] },
      { text: "Plan B is cheaper.", hang: true },
    ]);
    const page = await newPage();
    await openWidget(page);
    await sendMessage(page, "Which plan is cheaper?");
    await waitForWidgetText(page, ".tasks li", "Compare plans");
    await page.locator(".working").waitFor({ state: "visible" });
    const before = await storedSession(page);
    expect(before?.last_seq).toBeGreaterThan(0);

    await page.reload();
    await waitForWidgetText(page, ".msg.user", "Which plan is cheaper?");
    await waitForWidgetText(page, ".tasks li", "Compare plans");
    await page.locator(".working").waitFor({ state: "visible" });
    expect((await storedSession(page))?.conversation_id).toBe(before?.conversation_id);

    await releaseWidget(stack.model);
    await waitForWidgetText(page, ".msg.assistant", "Plan B is cheaper.");
    await page.locator(".working").waitFor({ state: "hidden" });
    expect(await widgetTexts(page, ".msg.user")).toEqual(["You: Which plan is cheaper?"]);
    expect(await widgetTexts(page, ".msg.assistant")).toEqual(["Assistant: Plan B is cheaper."]);
    expect(await widgetTexts(page, ".tool")).toHaveLength(1);
  });

  it("reconnects after a network drop and resumes without losing or duplicating events", async () => {
    await scriptWidget(stack.model, [{ text: "Answer after the drop.", hang: true }]);
    const proxy = await startTcpProxy(stack.cirrus);
    host.setPage(hostPage(stack.cirrus, { key: pk, api: proxy.url }));
    const page = await newPage().finally(() => host.setPage(defaultPage()));
    const streams: string[] = [];
    page.on("request", (r) => {
      if (r.url().includes("/events")) streams.push(r.headers()["last-event-id"] ?? "");
    });
    await openWidget(page);
    await sendMessage(page, "Are you there?");
    await waitForWidgetText(page, ".msg.user", "Are you there?");
    await page.locator(".working").waitFor({ state: "visible" });
    const opened = streams.length;

    try {
      expect(proxy.dropAll()).toBeGreaterThan(0);
      // The widget opens a new stream that resumes after the last seq it saw.
      await expect.poll(() => streams.length, { timeout: 20_000 }).toBeGreaterThan(opened);
      expect(Number(streams.at(-1))).toBeGreaterThan(0);
      await page.locator(".status").waitFor({ state: "hidden" });

      await releaseWidget(stack.model);
      await waitForWidgetText(page, ".msg.assistant", "Answer after the drop.");
      expect(await widgetTexts(page, ".msg.user")).toEqual(["You: Are you there?"]);
      expect(await widgetTexts(page, ".msg.assistant")).toEqual(["Assistant: Answer after the drop."]);
    } finally {
      await proxy.close();
    }
  });

  it("renders hostile HTML in the answer, a tool result and the title as inert text", async () => {
    const subject = `<img src=x onerror="window.__pwned='task'"><script>window.__pwned='task2'</script>`;
    const answer = [
      `<script>window.__pwned='answer'</script>`,
      `<img src=x onerror="window.__pwned='img'">`,
      `[click me](javascript:window.__pwned='link') and [data](data:text/html,<script>alert(1)</script>)`,
      `**<b onclick="window.__pwned='b'">bold</b>** <iframe src="javascript:window.__pwned='frame'"></iframe>`,
    ].join("\n\n");
    await scriptWidget(stack.model, [
      { tool_calls: [{ name: "create_task", arguments: { subject } }] },
      { text: answer },
    ]);
    host.setPage(hostPage(stack.cirrus, { key: pk, title: HOSTILE_TITLE }));
    try {
      const page = await newPage();
      await openWidget(page);
      await sendMessage(page, "Say something nasty");
      await waitForWidgetText(page, ".msg.assistant", "click me");
      expect(await widgetTexts(page, "header h2")).toEqual([HOSTILE_TITLE]);
      expect(await widgetTexts(page, ".tasks li")).toEqual([subject]);
      expect((await widgetTexts(page, ".msg.assistant")).join("")).toContain(
        "<script>window.__pwned='answer'</script>",
      );
      expect(await widgetTexts(page, ".panel img, .panel script, .panel iframe, .panel b")).toEqual([]);
      const hrefs = await page.evaluate(() =>
        [...(document.querySelector("[data-cirrus-widget]")?.shadowRoot?.querySelectorAll("a") ?? [])].map(
          (a) => a.href,
        ),
      );
      expect(hrefs.every((h) => h.startsWith("https:") || h.startsWith("http:"))).toBe(true);
      expect(await page.evaluate(() => (window as unknown as { __pwned?: string }).__pwned)).toBeUndefined();
      expect(await page.evaluate(() => document.images.length)).toBe(0);

      // The same conversation replayed in the dashboard, tool arguments and results included.
      const id = (await storedSession(page))!.conversation_id;
      const dash = await contexts[0].newPage();
      await dash.goto(`${stack.cirrus}/dashboard/`);
      await dash.locator("input[type=password]").fill(sk);
      await dash.locator("button[type=submit]").click();
      // The list shows a conversation by its title; its link names the id.
      await dash.locator(`a[href="#/conversations/${id}"]`).click();
      // Tool calls are collapsed: open the one whose result holds the hostile markup, as a person would.
      const hostileTool = dash.locator(".tool[data-status=done]", { hasText: "onerror" });
      await hostileTool.locator("summary").click();
      await hostileTool.locator(".tool-result", { hasText: "onerror" }).waitFor();
      await dash.locator(".msg.assistant", { hasText: "click me" }).waitFor();
      expect(await dash.locator("#app img, #app script, #app iframe, #app b").count()).toBe(0);
      expect(await dash.evaluate(() => (window as unknown as { __pwned?: string }).__pwned)).toBeUndefined();
    } finally {
      host.setPage(defaultPage());
    }
  });

  it("is refused on an origin its key does not allow, and the host page keeps working", async () => {
    const preflight = await fetch(`${stack.cirrus}/v1/widget/session`, {
      method: "OPTIONS",
      headers: { origin: evilHost.origin, "access-control-request-method": "POST" },
    });
    expect(preflight.status).toBe(403);
    expect(preflight.headers.get("access-control-allow-origin")).toBeNull();
    const direct = await fetch(`${stack.cirrus}/v1/widget/session`, {
      method: "POST",
      headers: { origin: evilHost.origin, authorization: `Bearer ${pk}` },
    });
    expect(direct.status).toBe(403);
    expect(((await direct.json()) as { error: { code: string } }).error.code).toBe("forbidden");

    const before = await cirrusApi<{ data: unknown[] }>(stack, "/v1/conversations?limit=100", sk);
    const ctx = await stack.browser.newContext();
    contexts.push(ctx);
    const page = await ctx.newPage();
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    await page.goto(evilHost.origin);
    await openWidget(page);
    await sendMessage(page, "Let me in");
    await waitForWidgetText(page, ".status", "offline");
    expect(await storedSession(page)).toBeNull();
    expect(errors).toEqual([]);
    expect(await page.locator("h1").textContent()).toBe("A shop somewhere else");
    const after = await cirrusApi<{ data: unknown[] }>(stack, "/v1/conversations?limit=100", sk);
    expect(after.data.length).toBe(before.data.length);
  });

  it("fills a phone's screen and speaks Spanish when asked to", async () => {
    host.setPage(hostPage(stack.cirrus, { key: pk, language: "es", position: "bottom-left" }));
    try {
      const page = await newPage({ width: 375, height: 700 });
      await openWidget(page);
      const box = await page.locator(".panel").boundingBox();
      expect(box).toMatchObject({ x: 0, y: 0, width: 375, height: 700 });
      expect(await page.locator("button.send").textContent()).toBe("Enviar");
      expect(await page.locator("form.composer textarea").getAttribute("placeholder")).toBe(
        "Escribe tu mensaje…",
      );
    } finally {
      host.setPage(defaultPage());
    }
  });

  it("takes its look from the dashboard's widget settings, with the script tag's attributes winning", async () => {
    const widget = {
      title: "Shop help desk",
      greeting: "¿En qué te ayudo?",
      language: "es",
      position: "left",
    };
    await cirrusApi(stack, "/v1/settings", sk, { method: "PUT", json: { widget } });
    host.setPage(hostPage(stack.cirrus, { key: pk, greeting: "Hello from the page!" }));
    try {
      const page = await newPage();
      await openWidget(page);
      expect(await page.locator("header h2").textContent()).toBe("Shop help desk");
      expect(await page.locator("button.send").textContent()).toBe("Enviar");
      await waitForWidgetText(page, ".log", "Hello from the page!");
      const box = await page.locator(".launcher").boundingBox();
      expect(box!.x).toBeLessThan(200);
    } finally {
      await cirrusApi(stack, "/v1/settings", sk, {
        method: "PUT",
        json: { widget: { title: null, greeting: null, language: null, position: null } },
      });
      host.setPage(defaultPage());
    }
  });

  it("offers a download for exactly the files the server says a tool wrote: a report and a screenshot", async () => {
    await scriptWidget(stack.model, [
      {
        tool_calls: [
          { name: "opfs_write", arguments: { path: "quotes/offer.md", content: "# Your offer\n" } },
          { name: "create_task", arguments: { subject: "Save and export the offer" } },
        ],
      },
      { tool_calls: [{ name: "open_tab", arguments: { url: host.origin } }] },
      { tool_calls: [{ name: "screenshot", arguments: {} }] },
      { text: "Your offer and a screenshot are ready." },
    ]);
    // The owner lets visitors use the file tools; a visitor's files live in its own folder.
    await cirrusApi(stack, "/v1/settings", sk, {
      method: "PUT",
      json: { widget: { tools: ["opfs_*", "create_task", "open_tab", "screenshot"] } },
    });
    try {
      const page = await newPage();
      await openWidget(page);
      await sendMessage(page, "Make me an offer");
      await waitForWidgetText(page, ".msg.assistant", "Your offer and a screenshot are ready.");
      const buttons = page.locator(".row.file button");
      const labels = await buttons.allTextContents();
      expect(labels).toHaveLength(2);
      expect(labels[0]).toBe("Download offer.md");
      expect(labels[1]).toMatch(/^Download tab-1-\d+\.png$/);

      const [report] = await Promise.all([page.waitForEvent("download"), buttons.nth(0).click()]);
      expect(report.suggestedFilename()).toBe("offer.md");
      let text = "";
      for await (const chunk of await report.createReadStream()) text += chunk.toString();
      expect(text).toBe("# Your offer\n");
      const [shot] = await Promise.all([page.waitForEvent("download"), buttons.nth(1).click()]);
      const bytes: Buffer[] = [];
      for await (const chunk of await shot.createReadStream()) bytes.push(chunk as Buffer);
      expect([...Buffer.concat(bytes).subarray(0, 4)]).toEqual([0x89, 0x50, 0x4e, 0x47]);
    } finally {
      await cirrusApi(stack, "/v1/settings", sk, { method: "PUT", json: { widget: { tools: null } } });
    }
  });
});
