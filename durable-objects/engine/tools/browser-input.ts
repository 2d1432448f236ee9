/**
 * Page interaction with real input events, for sites where a synthetic DOM event is not enough:
 * click, type_text, type_secret, press_key, scroll and wait_for (screenshot is in
 * ./browser-screenshot.ts).
 */
import { z } from "zod";
import {
  afterInput,
  focusField,
  pressCombo,
  refuseIfBlocked,
  waitForNextDocument,
} from "../browser/input-helpers";
import { totpCode } from "../secrets/totp";
import { secretTypingRefusal } from "../secrets/typable-secret";
import { createScreenshotTool, ScreenshotArgs } from "./browser-screenshot";
import { type BrowserOps, type BrowserToolDeps, browserAction, TabIdOption } from "./browser-shared";
import { defineTool, type Tool, ToolError } from "./tool";

/** wait_for's default and longest wait. */
export const DEFAULT_WAIT_MS = 10_000;
export const MAX_WAIT_MS = 60_000;
/** Default scroll step in pixels. */
const DEFAULT_SCROLL_PX = 600;

const Selector = z.string().min(1).max(1_000);

export const ClickArgs = z.object({
  tab_id: TabIdOption,
  selector: Selector.optional().describe("CSS selector of the element to click (e.g. from get_tab_content)."),
  x: z.number().min(0).optional().describe("Viewport x coordinate to click when no selector is given."),
  y: z.number().min(0).optional().describe("Viewport y coordinate to click when no selector is given."),
});
export const TypeTextArgs = z.object({
  tab_id: TabIdOption,
  selector: Selector.describe("CSS selector of the field to type into."),
  text: z.string().max(20_000).describe("The text to type, as key presses."),
  clear: z.boolean().default(false).describe("Clear the field's current value first (default false)."),
});
export const TypeSecretArgs = z.object({
  tab_id: TabIdOption,
  selector: Selector.describe("CSS selector of the field to type into."),
  secret: z
    .string()
    .regex(/^[A-Za-z0-9_.-]{1,64}$/)
    .describe("Name of a secret in the workspace's secret store; its value is typed but never shown to you."),
});
export const PressKeyArgs = z.object({
  tab_id: TabIdOption,
  key: z
    .string()
    .min(1)
    .max(100)
    .describe('A key name such as "Enter", "Tab", "ArrowDown", "Escape", or a combination like "Control+A".'),
  selector: Selector.optional().describe("Focus this element first."),
});
export const ScrollArgs = z.object({
  tab_id: TabIdOption,
  selector: Selector.optional().describe("Scroll this element into view instead of scrolling by an amount."),
  delta_x: z.number().optional().describe("Pixels to scroll right (negative: left); default 0."),
  delta_y: z
    .number()
    .optional()
    .describe(`Pixels to scroll down (negative: up); default ${DEFAULT_SCROLL_PX}.`),
});
export const WaitForArgs = z.object({
  tab_id: TabIdOption,
  selector: Selector.optional().describe("Wait until an element matching this selector is visible."),
  navigation: z.boolean().optional().describe("Wait until the tab finishes its next navigation."),
  timeout_ms: z
    .number()
    .int()
    .positive()
    .max(MAX_WAIT_MS)
    .default(DEFAULT_WAIT_MS)
    .describe(`How long to wait in milliseconds (default ${DEFAULT_WAIT_MS}).`),
});
export { ScreenshotArgs };

/** Creates the interaction tools. */
export function createBrowserInputTools(deps: BrowserToolDeps): Tool[] {
  const ops = deps.browser;
  return [
    clickTool(ops),
    typeTextTool(ops),
    typeSecretTool(deps),
    pressKeyTool(ops),
    scrollTool(ops),
    waitForTool(ops),
    createScreenshotTool(deps),
  ];
}

/** A real mouse click on an element or a point, waiting for a navigation it starts. */
function clickTool(ops: BrowserOps): Tool {
  return defineTool({
    name: "click",
    description:
      "Click an element (by CSS selector) or a point (x/y) with a real mouse click; waits for a navigation it starts.",
    parameters: ClickArgs,
    execute: browserAction(ops, async (a) => {
      const { tab, page } = await ops.resolve(a.tab_id);
      if (!a.selector && (a.x === undefined || a.y === undefined)) {
        throw new ToolError("invalid_arguments", "Give a selector, or both x and y.");
      }
      const navigated = await afterInput(page, () =>
        a.selector ? page.click(a.selector) : page.mouse.click(a.x!, a.y!),
      );
      refuseIfBlocked(ops.takeRefusal(tab.id));
      return { ...(await ops.view(tab, page)), clicked: a.selector ?? { x: a.x, y: a.y }, navigated };
    }),
  });
}

/** Types text into a field with real key presses. */
function typeTextTool(ops: BrowserOps): Tool {
  return defineTool({
    name: "type_text",
    description: "Type text into a field with real key presses.",
    parameters: TypeTextArgs,
    execute: browserAction(ops, async (a) => {
      const { tab, page } = await ops.resolve(a.tab_id);
      await focusField(page, a.selector, a.clear);
      await page.keyboard.type(a.text);
      return { tab_id: tab.id, selector: a.selector, typed: a.text.length };
    }),
  });
}

/** Types a named secret into a field on a page the secret is allowed on, never showing its value. */
function typeSecretTool(deps: BrowserToolDeps): Tool {
  const ops = deps.browser;
  return defineTool({
    name: "type_secret",
    description:
      "Type a named secret from the workspace's secret store into a field (e.g. a password, or the current one-time code of a TOTP secret). You never see its value. Works only on an http(s) page the secret is allowed on; afterwards execute_script is refused in that page until it navigates.",
    parameters: TypeSecretArgs,
    execute: browserAction(ops, async (a) => {
      const secret = await deps.secrets.read(a.secret);
      if (secret === null) {
        throw new ToolError(
          "not_found",
          `No secret named "${a.secret}" in this workspace. Ask the user to add it (PUT /v1/secrets/${a.secret}).`,
        );
      }
      const { tab, page } = await ops.resolve(a.tab_id);
      const refusal = secretTypingRefusal(a.secret, secret, page.url());
      if (refusal) throw new ToolError("secret_domain_refused", refusal);
      if (await ops.documentMarked(tab, page, "script")) {
        throw new ToolError(
          "secret_after_script",
          "execute_script ran in this tab's page since it loaded, so a script could be watching the field. Load the page again (open_tab with this tab_id and its URL), then type the secret before running any script.",
        );
      }
      ops.rememberSecret(a.secret, secret.value);
      const typed =
        secret.kind === "totp"
          ? await totpCode(secret.value, Date.now(), secret.digits, secret.period)
          : secret.value;
      if (typed !== secret.value) ops.rememberSecret(a.secret, typed);
      await focusField(page, a.selector, true);
      await ops.markSecretTyped(tab, page);
      await page.keyboard.type(typed);
      return { tab_id: tab.id, selector: a.selector, secret: a.secret, typed: true };
    }),
  });
}

/** Presses a key or key combination, optionally focusing an element first. */
function pressKeyTool(ops: BrowserOps): Tool {
  return defineTool({
    name: "press_key",
    description: "Press a key or key combination in a tab (optionally focusing an element first).",
    parameters: PressKeyArgs,
    execute: browserAction(ops, async (a) => {
      const { tab, page } = await ops.resolve(a.tab_id);
      if (a.selector) await page.focus(a.selector);
      const navigated = await afterInput(page, () => pressCombo(page, a.key));
      refuseIfBlocked(ops.takeRefusal(tab.id));
      return { ...(await ops.view(tab, page)), key: a.key, navigated };
    }),
  });
}

/** Scrolls a tab by an amount or brings an element into view. */
function scrollTool(ops: BrowserOps): Tool {
  return defineTool({
    name: "scroll",
    description:
      "Scroll a tab by an amount (mouse wheel) or bring an element into view. Returns the scroll position.",
    parameters: ScrollArgs,
    execute: browserAction(ops, async (a) => {
      const { tab, page } = await ops.resolve(a.tab_id);
      if (a.selector) {
        const el = await page.$(a.selector);
        if (!el) throw new ToolError("not_found", `No element matches "${a.selector}".`);
        await el.scrollIntoView();
      } else {
        await page.mouse.wheel({ deltaX: a.delta_x ?? 0, deltaY: a.delta_y ?? DEFAULT_SCROLL_PX });
        await page.evaluate("new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))");
      }
      const pos = (await page.evaluate("({ x: window.scrollX, y: window.scrollY })")) as {
        x: number;
        y: number;
      };
      return { tab_id: tab.id, scroll_x: pos.x, scroll_y: pos.y };
    }),
  });
}

/** Waits for an element to appear or for the tab's next navigation. */
function waitForTool(ops: BrowserOps): Tool {
  return defineTool({
    name: "wait_for",
    description:
      "Wait until an element appears (selector) or the tab's next navigation finishes (navigation: true).",
    parameters: WaitForArgs,
    timeoutMs: MAX_WAIT_MS + 10_000,
    execute: browserAction(ops, async (a) => {
      if (Boolean(a.selector) === Boolean(a.navigation)) {
        throw new ToolError("invalid_arguments", "Give either a selector or navigation: true.");
      }
      const { tab, page } = await ops.resolve(a.tab_id);
      try {
        if (a.selector) await page.waitForSelector(a.selector, { visible: true, timeout: a.timeout_ms });
        else await waitForNextDocument(page, ops.seenDocument(page), a.timeout_ms);
      } catch (err) {
        if ((err as Error).name !== "TimeoutError") throw err;
        const what = a.selector ? `"${a.selector}" to appear` : "a navigation";
        throw new ToolError("timeout", `Waited ${a.timeout_ms} ms for ${what}; it did not happen.`);
      }
      return { ...(await ops.view(tab, page)), waited_for: a.selector ?? "navigation" };
    }),
  });
}
