import { env } from "cloudflare:workers";
import puppeteer from "@cloudflare/puppeteer";
import { describe, expect, it } from "vitest";

describe("the local Browser Rendering binding", () => {
  it("launches a browser that opens a page from the page server", async () => {
    const browser = await puppeteer.launch(env.BROWSER, { keep_alive: 60_000 });
    try {
      const page = await browser.newPage();
      await page.goto(`${(env as unknown as { TEST_PAGE_URL: string }).TEST_PAGE_URL}/hello`);
      expect(await page.title()).toBe("Hello");
      const sessions = await puppeteer.sessions(env.BROWSER);
      expect(sessions.map((s) => s.sessionId)).toContain(browser.sessionId());
    } finally {
      await browser.close();
    }
  }, 60_000);
});
