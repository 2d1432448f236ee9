/** Helpers of the interaction tools: focusing fields, key combinations, waiting out navigations. */
import type { KeyInput, Page } from "@cloudflare/puppeteer";
import { BrowserError } from "../errors";
import { DOCUMENT_STATE_SCRIPT } from "./page-content";

/** How long to look for a navigation started by a click or key press. */
const NAVIGATION_GRACE_MS = 400;
/** How long such a navigation may take to load. */
const AFTER_INPUT_LOAD_MS = 15_000;

/** Focuses a field, optionally clearing it first (select all + Backspace, as a person would). */
export async function focusField(page: Page, selector: string, clear: boolean): Promise<void> {
  await page.click(selector);
  if (!clear) return;
  await pressCombo(page, "Control+A");
  await page.keyboard.press("Backspace");
}

/** Presses "Enter" or a combination like "Control+Shift+K". */
export async function pressCombo(page: Page, combo: string): Promise<void> {
  const keys = combo.split("+").map((k) => k.trim()) as KeyInput[];
  const last = keys.pop()!;
  for (const k of keys) await page.keyboard.down(k);
  await page.keyboard.press(last);
  for (const k of keys.reverse()) await page.keyboard.up(k);
}

/** A navigation the guard blocked becomes the error the model reads. */
export function refuseIfBlocked(refusal: string | null): void {
  if (refusal) throw new BrowserError("navigation_refused", refusal);
}

interface NavRequest {
  isNavigationRequest(): boolean;
  frame(): unknown;
}

/** Runs an input action and, when it starts a main-frame navigation, waits for the load (or its failure). */
export async function afterInput(page: Page, act: () => Promise<unknown>): Promise<boolean> {
  let started = false;
  let failed: () => void = () => {};
  const navFailed = new Promise<boolean>((resolve) => {
    failed = () => resolve(false);
  });
  const isMainNav = (req: NavRequest) => req.isNavigationRequest() && req.frame() === page.mainFrame();
  const onRequest = (req: NavRequest) => {
    if (isMainNav(req)) started = true;
  };
  const onFailed = (req: NavRequest) => {
    if (isMainNav(req)) failed();
  };
  page.on("request", onRequest);
  page.on("requestfailed", onFailed);
  const loaded = page.waitForNavigation({ waitUntil: "load", timeout: AFTER_INPUT_LOAD_MS }).then(
    () => true,
    () => false,
  );
  try {
    await act();
    await new Promise((r) => setTimeout(r, NAVIGATION_GRACE_MS));
    return started ? await Promise.race([loaded, navFailed]) : false;
  } finally {
    page.off("request", onRequest);
    page.off("requestfailed", onFailed);
  }
}

/**
 * Waits until the tab has loaded a document other than `seen` (the one it showed when the last
 * tool call ended): a navigation that already happened between two calls counts, so a page that
 * moves on by itself while the model thinks is not waited for twice. Rejects with puppeteer's
 * TimeoutError when none comes.
 */
export async function waitForNextDocument(page: Page, seen: number | null, timeout: number): Promise<void> {
  const next = page.waitForNavigation({ waitUntil: "load", timeout });
  next.catch(() => null); // settled below, or left to its own time-out when not needed
  const now = await page
    .evaluate(DOCUMENT_STATE_SCRIPT)
    .then((s) => s as { document: number; loaded: boolean })
    .catch(() => null); // the page is between documents: the navigation is under way
  if (now && seen !== null && now.document !== seen) {
    if (now.loaded) return;
    await page.waitForFunction(`document.readyState === "complete"`, { timeout });
    return;
  }
  await next;
}

/** Width and height from a PNG's IHDR chunk. */
export function pngSize(png: Uint8Array): { width: number; height: number } {
  const view = new DataView(png.buffer, png.byteOffset, png.byteLength);
  return png.byteLength >= 24
    ? { width: view.getUint32(16), height: view.getUint32(20) }
    : { width: 0, height: 0 };
}
