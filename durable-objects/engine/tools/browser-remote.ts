/**
 * The browser tools as a conversation offers them: the same names, descriptions and parameters
 * as ./browser.ts, but each call runs in the workspace's browser fleet (where the page lives)
 * through a {@link RemoteBrowser}. request_takeover stays in the conversation (it pauses the run).
 */
import type { CDPSession, Page } from "@cloudflare/puppeteer";
import { createBrowserTools } from "./browser";
import type { BrowserOps } from "./browser-shared";
import type { Tool, ToolContext } from "./tool";

/** The conversation's handle on its browser in the fleet. */
export interface RemoteBrowser {
  /** How long one page script may run (shown in execute_script's description). */
  readonly scriptTimeoutMs: number;
  /** The model is shown screenshots (changes screenshot's description). */
  readonly vision: boolean;
  /** Largest file upload_file sends (shown in its description). */
  readonly uploadMaxBytes: number;
  /** Runs one browser tool in the fleet. */
  call(name: string, args: unknown, ctx: ToolContext): Promise<Record<string, unknown>>;
  /** The id of the named tab, else of the active one, held for a person until `holdUntil` (request_takeover). */
  resolveTab(tabId: number | undefined, holdUntil: number): Promise<number>;
}

const elsewhere = () => {
  throw new Error("browser tools run in the browser fleet");
};

/** BrowserOps that only describe: the tools' texts need scriptTimeoutMs, nothing else. */
function describingOps(scriptTimeoutMs: number): BrowserOps {
  return {
    scriptTimeoutMs,
    list: elsewhere,
    open: elsewhere,
    close: elsewhere,
    activate: elsewhere,
    resolve: elsewhere,
    view: elsewhere as (tab: unknown, page: Page) => never,
    cdp: elsewhere as (page: Page) => Promise<CDPSession>,
    lost: elsewhere,
    takeRefusal: elsewhere,
    seenDocument: elsewhere,
    exclusive: elsewhere,
    settle: elsewhere,
    takeDownloads: elsewhere,
    rememberSecret: elsewhere,
    markSecretTyped: elsewhere,
    markScripted: elsewhere,
    documentMarked: elsewhere,
  };
}

/** The browser tools, each forwarding its call to the fleet. */
export function createRemoteBrowserTools(remote: RemoteBrowser): Tool[] {
  const shapes = createBrowserTools({
    browser: describingOps(remote.scriptTimeoutMs),
    secrets: { read: elsewhere },
    uploadMaxBytes: remote.uploadMaxBytes,
    vision: remote.vision,
  });
  return shapes.map((tool) => ({ ...tool, execute: (args, ctx) => remote.call(tool.name, args, ctx) }));
}
