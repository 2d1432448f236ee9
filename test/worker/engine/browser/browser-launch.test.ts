import { env } from "cloudflare:workers";
import puppeteer from "@cloudflare/puppeteer";
import { describe, expect, it } from "vitest";
import { BROWSER_TEST_TIMEOUT_MS, page } from "./browser-helpers";

describe("the local Browser Rendering binding", () => {
  it(
    "launches Chromium that opens a page from the local page server",
    async () => {
      const browser = await puppeteer.launch(env.BROWSER, { keep_alive: 60_000 });
      try {
        const tab = await browser.newPage();
        await tab.goto(page("/hello"));
        expect(await tab.title()).toBe("Hello");
        const sessions = await puppeteer.sessions(env.BROWSER);
        expect(sessions.map((s) => s.sessionId)).toContain(browser.sessionId());
      } finally {
        await browser.close();
      }
    },
    BROWSER_TEST_TIMEOUT_MS,
  );
});
