/**
 * upload_file: puts a workspace file into a page's file input, with its name and type, and fires
 * the input's `input` and `change` events as a person's choice would. The bytes travel to the page
 * in chunks through CDP into an isolated world of its own, so the page's scripts never see them
 * before the input does. (Downloads are caught by the browser's request guard: ../browser/downloads.ts.)
 */
import type { CDPSession } from "@cloudflare/puppeteer";
import { z } from "zod";
import { isolatedContext } from "../browser/page-eval";
import { type BrowserToolDeps, browserAction, TabIdOption, type UploadFiles } from "./browser-shared";
import { defineTool, type Tool, ToolError } from "./tool";

/** Base64 characters sent to the page per CDP message. */
const CHUNK_CHARS = 512 * 1024;
/** The isolated world the bytes are assembled in. */
const UPLOAD_WORLD = "cirrus-upload";

export const UploadFileArgs = z.object({
  tab_id: TabIdOption,
  selector: z.string().min(1).max(1_000).describe('CSS selector of the file input (an <input type="file">).'),
  path: z.string().min(1).max(1_024).describe("Workspace path of the file to put into the input."),
});

/** Checks the element in the page: "ok", "missing", "invalid" (selector) or "not_file_input". */
const CHECK_INPUT = `(selector) => {
  let el;
  try { el = document.querySelector(selector); } catch { return "invalid"; }
  if (!el) return "missing";
  return el instanceof HTMLInputElement && el.type === "file" ? "ok" : "not_file_input";
}`;

/** Builds the File from the chunks and hands it to the input as a person's choice would. */
const FILL_INPUT = `(selector, name, type) => {
  const chunks = globalThis.__cirrusUpload || [];
  globalThis.__cirrusUpload = [];
  const bin = atob(chunks.join(""));
  const bytes = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
  const input = document.querySelector(selector);
  const transfer = new DataTransfer();
  transfer.items.add(new File([bytes], name, { type }));
  input.files = transfer.files;
  input.dispatchEvent(new Event("input", { bubbles: true, composed: true }));
  input.dispatchEvent(new Event("change", { bubbles: true }));
  return { name: input.files[0].name, size: input.files[0].size, type: input.files[0].type };
}`;

function base64(bytes: Uint8Array): string {
  let bin = "";
  for (let i = 0; i < bytes.length; i += 0x8000) bin += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(bin);
}

/** Calls a function source with JSON arguments in a context; returns its JSON value. */
async function call(cdp: CDPSession, contextId: number, fn: string, args: unknown[]): Promise<unknown> {
  const res = (await cdp.send("Runtime.evaluate", {
    expression: `(${fn})(...${JSON.stringify(args)})`,
    contextId,
    returnByValue: true,
  })) as {
    result: { value?: unknown };
    exceptionDetails?: { text: string; exception?: { description?: string } };
  };
  if (res.exceptionDetails) {
    throw new ToolError(
      "upload_failed",
      `The page refused the file: ${res.exceptionDetails.exception?.description ?? res.exceptionDetails.text}`,
    );
  }
  return res.result.value;
}

/** Reads the workspace file, refusing a missing or oversized one. */
async function source(files: UploadFiles | undefined, path: string) {
  if (!files)
    throw new ToolError("not_available", "This conversation has no workspace files to upload from.");
  const file = await files.read(path);
  if (!file.ok) throw new ToolError(file.code, file.message);
  return file;
}

/** Checks that the selector names a file input of the page. */
async function checkInput(cdp: CDPSession, contextId: number, selector: string): Promise<void> {
  const check = await call(cdp, contextId, CHECK_INPUT, [selector]);
  if (check === "invalid")
    throw new ToolError("invalid_selector", `"${selector}" is not a valid CSS selector.`);
  if (check === "missing") throw new ToolError("not_found", `No element matches "${selector}".`);
  if (check !== "ok")
    throw new ToolError("not_file_input", `"${selector}" is not a file input (<input type="file">).`);
}

/** Creates upload_file. */
export function createBrowserFileTools(deps: BrowserToolDeps): Tool[] {
  const ops = deps.browser;
  return [
    defineTool({
      name: "upload_file",
      description: `Put a workspace file into a page's file input (<input type="file">), with its name and type, as if a person chose it; the page's input and change events fire. At most ${deps.uploadMaxBytes} bytes. Files a page downloads are saved under downloads/ (the call that caused one lists it).`,
      parameters: UploadFileArgs,
      execute: browserAction(ops, async (a) => {
        const { tab, page } = await ops.resolve(a.tab_id);
        const cdp = await ops.cdp(page);
        const contextId = await isolatedContext(cdp, UPLOAD_WORLD);
        await checkInput(cdp, contextId, a.selector);
        const file = await source(deps.uploads, a.path);
        const encoded = base64(file.bytes);
        await call(cdp, contextId, "() => { globalThis.__cirrusUpload = []; }", []);
        for (let i = 0; i < encoded.length; i += CHUNK_CHARS) {
          await call(cdp, contextId, "(c) => { globalThis.__cirrusUpload.push(c); }", [
            encoded.slice(i, i + CHUNK_CHARS),
          ]);
        }
        const name = a.path.split("/").pop() ?? a.path;
        const put = (await call(cdp, contextId, FILL_INPUT, [a.selector, name, file.contentType])) as {
          name: string;
          size: number;
          type: string;
        };
        return { tab_id: tab.id, selector: a.selector, path: a.path, file: put };
      }),
    }),
  ];
}
