/**
 * Runs JavaScript in a tab through CDP: in an isolated world (DOM, none of the page's globals)
 * or in the page's main world; results come back JSON-serialised, exceptions as their message,
 * and a script that runs too long is terminated.
 */
import type { CDPSession } from "@cloudflare/puppeteer";
import { BrowserError } from "../errors";

/** How long a page script may run unless the caller says otherwise. */
export const PAGE_SCRIPT_TIMEOUT_MS = 10_000;
/** The longest PAGE_SCRIPT_TIMEOUT_MS may set. */
export const MAX_PAGE_SCRIPT_TIMEOUT_MS = 60_000;
/** The isolated world the model's scripts share (it persists per document, like a content script). */
const SCRIPT_WORLD = "cirrus";
/** A separate world for Cirrus's own page reading, so the model's scripts cannot disturb it. */
export const READER_WORLD = "cirrus-reader";
/** Longest exception message handed back to the model. */
const MAX_ERROR_CHARS = 2_000;

/** Where a page script runs: the isolated script world, the page's main world, or the reader world. */
export type World = "ISOLATED" | "MAIN" | typeof READER_WORLD;

/** Turns a remote value into plain JSON in the page: DOM nodes become their HTML, cycles are cut. */
const SERIALIZE = `function () {
  const seen = new WeakSet();
  const conv = (v, depth) => {
    if (v === undefined) return null;
    if (typeof v === "function") return "[function " + (v.name || "anonymous") + "]";
    if (typeof v === "bigint" || typeof v === "symbol") return v.toString();
    if (typeof v === "number" && !Number.isFinite(v)) return String(v);
    if (typeof v !== "object" || v === null) return v;
    if (typeof Node !== "undefined" && v instanceof Node)
      return v.nodeType === 1 ? v.outerHTML.slice(0, 2000) : v.textContent;
    if (seen.has(v)) return "[circular]";
    seen.add(v);
    if (depth > 20) return "[too deep]";
    if (v instanceof Error) return { name: v.name, message: v.message };
    if (typeof v.toJSON === "function") return conv(v.toJSON(), depth + 1);
    if (v instanceof Map) return Object.fromEntries([...v].map(([k, x]) => [String(k), conv(x, depth + 1)]));
    if (Array.isArray(v) || v instanceof Set || (typeof v.length === "number" && typeof v.item === "function"))
      return Array.from(v, (x) => conv(x, depth + 1));
    const out = {};
    for (const k of Object.keys(v)) out[k] = conv(v[k], depth + 1);
    return out;
  };
  return conv(this, 0);
}`;

interface RemoteObject {
  type: string;
  subtype?: string;
  value?: unknown;
  unserializableValue?: string;
  objectId?: string;
  description?: string;
}
interface ExceptionDetails {
  text: string;
  exception?: RemoteObject;
}
interface EvaluateResult {
  result: RemoteObject;
  exceptionDetails?: ExceptionDetails;
}

/** The execution context of a fresh isolated world in the page's main frame. */
export async function isolatedContext(cdp: CDPSession, worldName: string): Promise<number> {
  const { frameTree } = await cdp.send("Page.getFrameTree");
  const { executionContextId } = await cdp.send("Page.createIsolatedWorld", {
    frameId: frameTree.frame.id,
    worldName,
    grantUniveralAccess: false,
  });
  return executionContextId;
}

/** Evaluates `code` (statements, an expression, top-level await or `return`) and returns its JSON value. */
export async function evaluateInPage(
  cdp: CDPSession,
  code: string,
  world: World,
  timeoutMs = PAGE_SCRIPT_TIMEOUT_MS,
): Promise<unknown> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      cdp.send("Runtime.terminateExecution").catch(() => {});
      reject(
        new BrowserError(
          "script_timeout",
          `The script did not finish within ${timeoutMs / 1000} s and was stopped. Avoid endless loops and waits.`,
        ),
      );
    }, timeoutMs);
  });
  try {
    return await Promise.race([run(cdp, code, world, timeoutMs), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

async function run(cdp: CDPSession, code: string, world: World, timeoutMs: number): Promise<unknown> {
  const contextId =
    world === "MAIN" ? undefined : await isolatedContext(cdp, world === "ISOLATED" ? SCRIPT_WORLD : world);
  const evaluate = (expression: string) =>
    cdp.send("Runtime.evaluate", {
      expression,
      contextId,
      replMode: true,
      awaitPromise: true,
      returnByValue: false,
      userGesture: true,
      timeout: timeoutMs,
    }) as Promise<EvaluateResult>;
  let res = await evaluate(code);
  if (res.exceptionDetails && /Illegal return statement/.test(exceptionText(res.exceptionDetails))) {
    res = await evaluate(`(async () => {\n${code}\n})()`);
  }
  if (res.exceptionDetails) throw scriptError(res.exceptionDetails);
  return toJson(cdp, res.result);
}

async function toJson(cdp: CDPSession, value: RemoteObject): Promise<unknown> {
  let obj = value;
  if (obj.subtype === "promise" && obj.objectId) {
    // replMode awaits the script, not a promise it evaluates to: settle that one here.
    const settled = (await cdp.send("Runtime.awaitPromise", {
      promiseObjectId: obj.objectId,
    })) as EvaluateResult;
    if (settled.exceptionDetails) throw scriptError(settled.exceptionDetails);
    obj = settled.result;
  }
  if (obj.unserializableValue !== undefined) return obj.unserializableValue;
  if (!obj.objectId) return obj.value ?? null;
  const res = (await cdp.send("Runtime.callFunctionOn", {
    objectId: obj.objectId,
    functionDeclaration: SERIALIZE,
    returnByValue: true,
  })) as EvaluateResult;
  cdp.send("Runtime.releaseObject", { objectId: obj.objectId }).catch(() => {});
  if (res.exceptionDetails) throw scriptError(res.exceptionDetails);
  return res.result.value ?? null;
}

function exceptionText(d: ExceptionDetails): string {
  return d.exception?.description ?? (d.exception?.value !== undefined ? String(d.exception.value) : d.text);
}

function scriptError(d: ExceptionDetails): BrowserError {
  const text = exceptionText(d);
  if (/Execution was terminated/i.test(text)) {
    return new BrowserError("script_timeout", "The script ran too long and was stopped.");
  }
  return new BrowserError("script_error", `The script threw: ${text.slice(0, MAX_ERROR_CHARS)}`);
}
