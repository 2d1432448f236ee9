/** What the browser tool families share: their dependencies, common schemas and error mapping. */
import type { CDPSession, Page } from "@cloudflare/puppeteer";
import { z } from "zod";
import type { DownloadedFile, RefusedDownload } from "../browser/downloads";
import type { OpenTabOptions, TabFilter, TabView } from "../browser/tab-manager";
import type { TabRecord } from "../browser/tab-store";
import { CirrusError } from "../errors";
import type { TypableSecret } from "../secrets/typable-secret";
import { type ToolContext, ToolError } from "./tool";

/** The conversation's browser as the tools use it. */
export interface BrowserOps {
  /** How long one page script may run. */
  readonly scriptTimeoutMs: number;
  list(filter: TabFilter): Promise<TabView[]>;
  open(opts: OpenTabOptions): Promise<TabView>;
  close(id: number): Promise<TabView>;
  activate(id: number): Promise<TabView>;
  /** The named tab, else the active tab of the focused window, with its page. */
  resolve(tabId?: number): Promise<{ tab: TabRecord; page: Page }>;
  view(tab: TabRecord, page: Page): Promise<TabView>;
  cdp(page: Page): Promise<CDPSession>;
  /** Why the tab's last navigation was refused by the navigation guard, once. */
  takeRefusal(tabId: number): string | null;
  /** The document a page showed when the last tool call on it ended (null when not known). */
  seenDocument(page: Page): number | null;
  /** When `err` means the browser itself died: forgets it so the next use rebuilds it; true if so. */
  lost(err: unknown): Promise<boolean>;
  /** Runs browser work one call at a time (parallel tool calls would fight over focus). */
  exclusive<T>(work: () => Promise<T>): Promise<T>;
  /** After each tool (inside `exclusive`): publishes tabs, has cookies/storage saved once the call has answered (before the next call); returns a rebuild note once. */
  settle(): Promise<string | null>;
  /** Waits for the downloads the call started and hands over (once) what came of them. */
  takeDownloads(): Promise<(DownloadedFile | RefusedDownload)[]>;
  /** Marks a secret as typed so its value (and its encodings) is blanked out of every later result. */
  rememberSecret(name: string, value: string): void;
  /** Marks the tab's current document as holding a typed secret. */
  markSecretTyped(tab: TabRecord, page: Page): Promise<void>;
  /** Marks the tab's current document as having run a script of the model's. */
  markScripted(tab: TabRecord, page: Page): Promise<void>;
  /** Whether the tab's current document holds a typed secret ("secret") / ran a model's script ("script"). */
  documentMarked(tab: TabRecord, page: Page, mark: "secret" | "script"): Promise<boolean>;
}

/** Reads secrets from the workspace's store (values never go to the model). */
export interface SecretReader {
  read(name: string): Promise<TypableSecret | null>;
}

/** Summarises text with the conversation's model. */
export type Summarize = (text: string, prompt: string, signal: AbortSignal) => Promise<string>;

/** Saves a file to the workspace and returns its path. */
export type SaveFile = (path: string, bytes: Uint8Array, contentType: string) => Promise<string>;

/** Everything the browser tools need. */
/** A workspace file as upload_file reads it, or why it cannot (a message the model reads). */
export type UploadRead =
  | { ok: true; bytes: Uint8Array; contentType: string }
  | { ok: false; code: string; message: string };

/** The workspace files upload_file may put into a page (a visitor's stay in its folder). */
export interface UploadFiles {
  /** Largest file upload_file sends (its description says so). */
  maxBytes: number;
  read(path: string): Promise<UploadRead>;
}

export interface BrowserToolDeps {
  browser: BrowserOps;
  secrets: SecretReader;
  /** Workspace files for upload_file (absent: upload_file answers that there are none). */
  uploads?: UploadFiles;
  /** Largest file upload_file sends, for its description (BROWSER_UPLOAD_MAX_BYTES). */
  uploadMaxBytes: number;
  summarize?: Summarize;
  saveFile?: SaveFile;
  /** The model is shown screenshots as images (workspace setting model_vision). */
  vision?: boolean;
}

/** The optional tab id of tools that act on a tab. */
export const TabIdOption = z
  .number()
  .int()
  .positive()
  .optional()
  .describe("The tab to act on (from open_tab or list_tabs); defaults to the active tab.");

/** Wraps a browser tool: settles the session afterwards and adds a rebuild note (the tool runner redacts secrets). */
export function browserAction<A>(
  ops: BrowserOps,
  run: (args: A, ctx: ToolContext) => Promise<Record<string, unknown>>,
): (args: A, ctx: ToolContext) => Promise<Record<string, unknown>> {
  return (args, ctx) =>
    ops.exclusive(async () => {
      let result: Record<string, unknown>;
      try {
        result = await runOnLiveBrowser(ops, () => run(args, ctx));
      } catch (err) {
        await ops.takeDownloads().catch(() => null);
        await ops.settle().catch(() => null);
        throw readableError(err);
      }
      const downloads = await ops.takeDownloads();
      const note = await ops.settle().catch(() => null);
      return { ...result, ...(downloads.length ? { downloads } : {}), ...(note ? { note } : {}) };
    });
}

/** Runs a tool once more on a rebuilt browser when the browser died under it (e.g. its session was killed). */
async function runOnLiveBrowser<T>(ops: BrowserOps, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (!(await ops.lost(err))) throw err;
    return work();
  }
}

/** Turns puppeteer's errors into ToolErrors the model can act on. */
export function readableError(err: unknown): unknown {
  if (err instanceof CirrusError || !(err instanceof Error)) return err;
  const msg = err.message;
  if (err.name === "TimeoutError" || /timeout .*exceeded/i.test(msg)) {
    return new ToolError("timeout", msg.replace(/^Waiting .*failed: /, "Timed out: "));
  }
  if (/No element found|failed to find element|Node is either not (visible|clickable)/i.test(msg)) {
    return new ToolError("not_found", `${msg}. Check the selector with get_tab_content.`);
  }
  if (/is not a valid selector|Unexpected token|SyntaxError/i.test(msg)) {
    return new ToolError("invalid_selector", msg);
  }
  if (/Unknown key/i.test(msg)) return new ToolError("invalid_key", msg);
  return err;
}
