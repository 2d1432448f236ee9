/** Reading the widget from a Playwright page: it lives in an open shadow root. */
import type { Page } from "playwright-core";

/** Text content of every element matching `selector` inside the widget. */
export function widgetTexts(page: Page, selector: string): Promise<string[]> {
  return page.evaluate((sel) => {
    const root = document.querySelector("[data-cirrus-widget]")?.shadowRoot;
    return root ? [...root.querySelectorAll(sel)].map((e) => e.textContent ?? "") : [];
  }, selector);
}

/** Waits until an element matching `selector` inside the widget contains `text`. */
export async function waitForWidgetText(
  page: Page,
  selector: string,
  text: string,
  timeout = 20_000,
): Promise<void> {
  await page.locator(selector, { hasText: text }).first().waitFor({ state: "visible", timeout });
}

/** Records every text the assistant bubbles show, to prove the answer streamed in pieces. */
export async function recordAssistantTexts(page: Page): Promise<void> {
  await page.evaluate(() => {
    const root = document.querySelector("[data-cirrus-widget]")?.shadowRoot;
    const seen: string[] = [];
    (window as unknown as { __texts: string[] }).__texts = seen;
    if (!root) return;
    new MutationObserver(() => {
      const last = [...root.querySelectorAll(".msg.assistant .md")].pop();
      const text = last?.textContent ?? "";
      if (text && seen[seen.length - 1] !== text) seen.push(text);
    }).observe(root, { subtree: true, childList: true, characterData: true });
  });
}

/** Sends a message through the composer like a person would. */
export async function sendMessage(page: Page, text: string): Promise<void> {
  const input = page.locator("form.composer textarea");
  await input.fill(text);
  await input.press("Enter");
}

/** Opens the widget's panel (if closed). */
export async function openWidget(page: Page): Promise<void> {
  const launcher = page.locator(".launcher");
  await launcher.waitFor({ timeout: 20_000 });
  if ((await launcher.getAttribute("aria-expanded")) !== "true") await launcher.click();
  await page.locator("form.composer textarea").waitFor({ state: "visible" });
}

/** The stored widget session of the page (conversation id, visitor token, last seq). */
export function storedSession(page: Page): Promise<{ conversation_id: string; last_seq: number } | null> {
  return page.evaluate(() => {
    for (let i = 0; i < localStorage.length; i++) {
      const key = localStorage.key(i);
      if (key?.startsWith("cirrus-widget:")) return JSON.parse(localStorage.getItem(key) ?? "null");
    }
    return null;
  });
}
