/**
 * execute_script's `target: "sandbox"`: pure computation in QuickJS inside the Worker, with no
 * DOM, network or I/O, bounded by wall time, by a count of interrupt checks (deployed Workers
 * may not advance the clock during pure CPU work) and by memory.
 */
import releaseSync from "@jitl/quickjs-wasmfile-release-sync";
import wasmModule from "@jitl/quickjs-wasmfile-release-sync/wasm";
import {
  newQuickJSWASMModuleFromVariant,
  newVariant,
  type QuickJSContext,
  type QuickJSHandle,
  type QuickJSWASMModule,
} from "quickjs-emscripten-core";
import { BrowserError } from "../errors";

/** Wall-clock budget of one sandbox script. */
export const SANDBOX_TIMEOUT_MS = 5_000;
/** Interrupt checks allowed (QuickJS checks every ~10k operations). */
export const SANDBOX_MAX_INTERRUPTS = 50_000;
/** Heap limit of one sandbox script. */
export const SANDBOX_MEMORY_BYTES = 32 * 1024 * 1024;
/** Stack limit of one sandbox script. */
export const SANDBOX_STACK_BYTES = 1024 * 1024;
/** Longest error message handed back to the model. */
const MAX_ERROR_CHARS = 2_000;

let quickjs: Promise<QuickJSWASMModule> | null = null;

/** Limits of one sandbox run. */
export interface SandboxLimits {
  timeoutMs: number;
  maxInterrupts: number;
  memoryBytes: number;
}

const DEFAULT_LIMITS: SandboxLimits = {
  timeoutMs: SANDBOX_TIMEOUT_MS,
  maxInterrupts: SANDBOX_MAX_INTERRUPTS,
  memoryBytes: SANDBOX_MEMORY_BYTES,
};

/** Runs `code` (statements, an expression or a `return`) and returns its JSON-serialised value. */
export async function runInSandbox(code: string, limits: SandboxLimits = DEFAULT_LIMITS): Promise<unknown> {
  quickjs ??= newQuickJSWASMModuleFromVariant(newVariant(releaseSync, { wasmModule }));
  const runtime = (await quickjs).newRuntime();
  runtime.setMemoryLimit(limits.memoryBytes);
  runtime.setMaxStackSize(SANDBOX_STACK_BYTES);
  const deadline = Date.now() + limits.timeoutMs;
  let interrupts = 0;
  let stopped = false;
  runtime.setInterruptHandler(() => {
    interrupts += 1;
    stopped = interrupts > limits.maxInterrupts || Date.now() > deadline;
    return stopped;
  });
  const vm = runtime.newContext();
  try {
    const source = `(() => { try { return (0, eval)(${JSON.stringify(code)}); } catch (e) {
      if (e instanceof SyntaxError && /return/.test(e.message)) return (0, eval)("(function () {" + ${JSON.stringify(code)} + "\\n})()");
      throw e; } })()`;
    const result = vm.evalCode(source, "script.js");
    const value = vm.unwrapResult(result);
    return settle(vm, value, runtime.executePendingJobs.bind(runtime));
  } catch (err) {
    throw sandboxError(err, stopped, limits);
  } finally {
    vm.dispose();
    runtime.dispose();
  }
}

function settle(vm: QuickJSContext, handle: QuickJSHandle, runJobs: () => unknown): unknown {
  let value = handle;
  const state = vm.getPromiseState(handle);
  if (state.type !== "fulfilled" || state.notAPromise !== true) {
    runJobs();
    const settled = vm.getPromiseState(handle);
    if (settled.type === "pending") {
      handle.dispose();
      throw new BrowserError(
        "script_error",
        "The script's promise never settled; the sandbox has no timers or I/O.",
      );
    }
    value = vm.unwrapResult(settled);
    if (value !== handle) handle.dispose();
  }
  const json = vm.getProp(vm.global, "JSON");
  const stringify = vm.getProp(json, "stringify");
  const out = vm.unwrapResult(vm.callFunction(stringify, json, value));
  const text = vm.typeof(out) === "string" ? vm.getString(out) : null;
  for (const h of [out, stringify, json, value]) h.dispose();
  return text === null ? null : JSON.parse(text);
}

function sandboxError(err: unknown, stopped: boolean, limits: SandboxLimits): BrowserError {
  if (err instanceof BrowserError) return err;
  const raw = err as { name?: string; message?: string; cause?: unknown };
  const dumped = raw.cause as { name?: string; message?: string } | undefined;
  const name = dumped?.name ?? raw.name ?? "Error";
  const message = String(dumped?.message ?? raw.message ?? err);
  if (stopped || /interrupted/i.test(message)) {
    return new BrowserError(
      "script_timeout",
      `The sandbox script was stopped: it ran past its budget (${limits.timeoutMs / 1000} s of computation).`,
    );
  }
  if (/out of memory/i.test(message) || (name === "InternalError" && /memory/i.test(message))) {
    return new BrowserError(
      "script_memory",
      `The sandbox script ran out of memory (limit ${limits.memoryBytes / (1024 * 1024)} MiB).`,
    );
  }
  return new BrowserError("script_error", `The script threw: ${name}: ${message}`.slice(0, MAX_ERROR_CHARS));
}
