/**
 * The remote-browser tools: list_tabs, open_tab, close_tab, activate_tab, get_tab_content and
 * execute_script (page worlds or the QuickJS sandbox); the interaction tools live in
 * ./browser-input.ts and are registered together by {@link createBrowserTools}.
 */
import { z } from "zod";
import { type PageReading, readPageScript } from "../browser/page-content";
import { evaluateInPage, MAX_PAGE_SCRIPT_TIMEOUT_MS, READER_WORLD } from "../browser/page-eval";
import { runInSandbox, SANDBOX_TIMEOUT_MS } from "../browser/sandbox";
import { createBrowserFileTools } from "./browser-files";
import { createBrowserInputTools } from "./browser-input";
import { type BrowserOps, type BrowserToolDeps, browserAction, TabIdOption } from "./browser-shared";
import { durationText } from "./limit-text";
import { defineTool, type Tool, ToolError } from "./tool";

/** Default cap of get_tab_content's content. */
export const DEFAULT_CONTENT_CHARS = 20_000;
/** Most page text handed to the summariser. */
export const MAX_SUMMARY_INPUT_CHARS = 60_000;
/** The outline of the rest of the page is kept after a cut main part when it takes at most this share of max_length. */
export const OUTLINE_SHARE = 0.25;
/** How long extracting a page may take. */
const EXTRACT_TIMEOUT_MS = 15_000;

const TabId = z.number().int().positive().describe("Tab ID (from open_tab or list_tabs).");

export const ListTabsArgs = z.object({
  url_pattern: z.string().max(1_000).optional().describe("A regex to match the URL (case-insensitive)."),
  title_pattern: z.string().max(1_000).optional().describe("A regex to match the title (case-insensitive)."),
  active: z.boolean().optional().describe("Only return active tabs (true) or only inactive ones (false)."),
  window_id: z.number().int().positive().optional().describe("Only tabs of this window."),
  audible: z.boolean().optional().describe("Only tabs currently playing unmuted audio or video."),
});

export const OpenTabArgs = z.object({
  url: z.string().min(1).max(8_000).describe("Target URL (http or https)."),
  tab_id: z
    .number()
    .int()
    .positive()
    .optional()
    .describe("An existing tab to navigate; without it a new tab is opened."),
  active: z
    .boolean()
    .default(true)
    .describe("Whether to make the tab its window's active tab (default true)."),
  window_id: z
    .number()
    .int()
    .positive()
    .optional()
    .describe("Window for a new tab (a new id starts a new window); defaults to the focused window."),
  wait_until_loaded: z
    .boolean()
    .default(true)
    .describe("Wait for the page's load event before returning (default true)."),
});

export const TabIdArgs = z.object({ tab_id: TabId });

export const GetTabContentArgs = z.object({
  tab_id: TabId,
  selector: z
    .string()
    .max(1_000)
    .optional()
    .describe("A CSS selector; only the matching element is extracted."),
  prompt: z
    .string()
    .max(4_000)
    .optional()
    .describe("Summarisation prompt: when given, the content is distilled by the model following it."),
  max_length: z
    .number()
    .int()
    .positive()
    .max(200_000)
    .optional()
    .describe(`Maximum characters of content (default ${DEFAULT_CONTENT_CHARS}).`),
});

export const ExecuteScriptArgs = z.object({
  code: z
    .string()
    .min(1)
    .max(100_000)
    .describe(
      "JavaScript to run. The value of the last expression (or a top-level `return`) is returned as JSON; `await` works.",
    ),
  target: z
    .enum(["page", "sandbox"])
    .describe('"page": run in a tab; "sandbox": pure computation (no DOM, network or I/O).'),
  tab_id: TabIdOption.describe("The tab when target is page (defaults to the active tab)."),
  world: z
    .enum(["ISOLATED", "MAIN"])
    .default("ISOLATED")
    .describe(
      'Page mode only. "ISOLATED" (default): DOM access without the page\'s JavaScript globals (globals it sets persist until the page navigates); "MAIN": the page\'s own globals and functions.',
    ),
});

/** The main part and the outline of the rest, as the model reads them. */
const joinOutline = (main: string, outline: string) => (outline ? `${main}\n\n---\n\n${outline}` : main);

/**
 * Fits the main part and the outline into `max` characters: when the main part is cut, the
 * outline still closes the content if it takes at most OUTLINE_SHARE of `max`.
 */
export function fitContent(
  main: string,
  outline: string,
  max: number,
): { content: string; truncated: boolean } {
  const whole = joinOutline(main, outline);
  if (whole.length <= max) return { content: whole, truncated: false };
  const tail = outline ? `\n\n[…]\n\n---\n\n${outline}` : "";
  if (!tail || tail.length > max * OUTLINE_SHARE) return { content: whole.slice(0, max), truncated: true };
  return { content: main.slice(0, max - tail.length) + tail, truncated: true };
}

/** Creates every browser tool over the conversation's browser. */
export function createBrowserTools(deps: BrowserToolDeps): Tool[] {
  const ops = deps.browser;
  return [
    listTabsTool(ops),
    openTabTool(ops),
    closeTabTool(ops),
    activateTabTool(ops),
    getTabContentTool(deps),
    executeScriptTool(ops),
    ...createBrowserInputTools(deps),
    ...createBrowserFileTools(deps),
  ];
}

/** Lists the open tabs, optionally filtered. */
function listTabsTool(ops: BrowserOps): Tool {
  return defineTool({
    name: "list_tabs",
    description:
      "List the open browser tabs, optionally filtered. Returns each tab's id, window_id, url, title, active and loading.",
    parameters: ListTabsArgs,
    execute: browserAction(ops, async (args) => ({ tabs: await ops.list(args) })),
  });
}

/** Opens a URL in a new tab or navigates an existing one. */
function openTabTool(ops: BrowserOps): Tool {
  return defineTool({
    name: "open_tab",
    description: "Open a URL in a new tab, or navigate an existing tab (tab_id). Returns the tab.",
    parameters: OpenTabArgs,
    execute: browserAction(ops, async (a) => ({
      ...(await ops.open({
        url: a.url,
        tabId: a.tab_id,
        active: a.active,
        windowId: a.window_id,
        waitUntilLoaded: a.wait_until_loaded,
      })),
    })),
  });
}

/** Closes a tab. */
function closeTabTool(ops: BrowserOps): Tool {
  return defineTool({
    name: "close_tab",
    description: "Close a tab. Returns the closed tab.",
    parameters: TabIdArgs,
    execute: browserAction(ops, async ({ tab_id }) => ({ ...(await ops.close(tab_id)), closed: true })),
  });
}

/** Makes a tab the active one of its window and focuses that window. */
function activateTabTool(ops: BrowserOps): Tool {
  return defineTool({
    name: "activate_tab",
    description: "Make a tab the active tab of its window and focus that window. Returns the tab.",
    parameters: TabIdArgs,
    execute: browserAction(ops, async ({ tab_id }) => ({ ...(await ops.activate(tab_id)) })),
  });
}

/** Reads a tab's rendered page as Markdown: its main content, then an outline of the rest. */
function getTabContentTool(deps: BrowserToolDeps): Tool {
  const ops = deps.browser;
  return defineTool({
    name: "get_tab_content",
    description:
      "Read a tab's rendered page (after its JavaScript ran) as Markdown. Without selector: the page's main content first (used_selector names it), then an outline of the other parts (navigation, sidebars, footer, dialogs), each with the selector that reads it. Links, buttons, form fields and section headings are followed by a CSS selector in braces, e.g. `[button: Send] {#send}`; pass it as is to click, type_text, wait_for, scroll or execute_script.",
    parameters: GetTabContentArgs,
    execute: browserAction(ops, async (args, ctx) => {
      const { tab, page } = await ops.resolve(args.tab_id);
      const cdp = await ops.cdp(page);
      const page_ = (await evaluateInPage(
        cdp,
        readPageScript(args.selector),
        READER_WORLD,
        EXTRACT_TIMEOUT_MS,
      )) as PageReading;
      if (page_.error === "bad_selector") {
        throw new ToolError("invalid_selector", `"${args.selector}" is not a valid CSS selector.`);
      }
      if (page_.error === "no_match") {
        throw new ToolError("not_found", `No element matches "${args.selector}" on ${page_.url}.`);
      }
      const max = args.max_length ?? DEFAULT_CONTENT_CHARS;
      const { content, truncated } = await readingText(deps, page_, args.prompt, max, ctx.signal);
      return {
        tab_id: tab.id,
        url: page_.url,
        title: page_.title,
        content,
        truncated,
        used_selector: page_.used_selector,
      };
    }),
  });
}

/** A page reading as the model gets it: summarised for the prompt when one is given, else fitted into `max`. */
async function readingText(
  deps: BrowserToolDeps,
  reading: PageReading,
  prompt: string | undefined,
  max: number,
  signal: AbortSignal,
): Promise<{ content: string; truncated: boolean }> {
  if (!prompt) return fitContent(reading.content, reading.outline, max);
  if (!deps.summarize) throw new ToolError("unavailable", "Summarising is not available here.");
  const whole = joinOutline(reading.content, reading.outline);
  const summary = await deps.summarize(whole.slice(0, MAX_SUMMARY_INPUT_CHARS), prompt, signal);
  return { content: summary.slice(0, max), truncated: summary.length > max };
}

/** Runs JavaScript in a tab's page (refused once a secret was typed there) or in a sandbox. */
function executeScriptTool(ops: BrowserOps): Tool {
  return defineTool({
    name: "execute_script",
    description: `Run JavaScript in a tab (target page; world ISOLATED by default, MAIN for the page's own globals) or in a sandbox (pure computation). Returns the result as JSON; exceptions come back with their message; a page script running longer than ${durationText(Math.min(ops.scriptTimeoutMs, MAX_PAGE_SCRIPT_TIMEOUT_MS))} is stopped, a sandbox script after ${durationText(SANDBOX_TIMEOUT_MS)}.`,
    parameters: ExecuteScriptArgs,
    timeoutMs: MAX_PAGE_SCRIPT_TIMEOUT_MS + 10_000,
    execute: browserAction(ops, async (args) => {
      if (args.target === "sandbox") return { target: "sandbox", result: await runInSandbox(args.code) };
      const { tab, page } = await ops.resolve(args.tab_id);
      if (await ops.documentMarked(tab, page, "secret")) {
        throw new ToolError(
          "secret_in_page",
          `A secret was typed into tab ${tab.id}'s page, so scripts may not run in it until the tab navigates to another page. Read it with get_tab_content instead.`,
        );
      }
      await ops.markScripted(tab, page);
      const result = await evaluateInPage(
        await ops.cdp(page),
        args.code,
        args.world,
        Math.min(ops.scriptTimeoutMs, MAX_PAGE_SCRIPT_TIMEOUT_MS),
      );
      return { target: "page", tab_id: tab.id, world: args.world, result };
    }),
  });
}
