/**
 * Keeps a passing test run to its results. Each filter drops only lines known to be the expected
 * side of what a test does on purpose, where they are made; anything else still prints.
 * (workerd's own INFO logs are off through the pool's `verbose: false` in vitest.config.ts.)
 */
import type { Plugin } from "vite";

/** Vite's warning about a package's sourcemap that names sources the package does not ship. */
const DEPENDENCY_SOURCEMAP = /^Sourcemap for ".*\/node_modules\/.*" points to missing source files$/;

/**
 * A Vite plugin that drops "Sourcemap for …/node_modules/… points to missing source files" (the MCP
 * SDK and standardwebhooks publish maps without their sources). Vitest installs its own logger over
 * `customLogger`, so the filter goes on the resolved one; a missing source of our own still warns.
 */
export function quietSourcemapWarnings(): Plugin {
  return {
    name: "cirrus:quiet-sourcemap-warnings",
    configResolved(config) {
      const warnOnce = config.logger.warnOnce.bind(config.logger);
      config.logger.warnOnce = (msg, options) => {
        if (!DEPENDENCY_SOURCEMAP.test(msg)) warnOnce(msg, options);
      };
    },
  };
}

/** Console lines of the code under test that the tests provoke on purpose (for `onConsoleLog`). */
const EXPECTED_CONSOLE = [
  // The AG-UI client strips Cirrus's extension fields (usage cost, citations) off RUN_FINISHED.
  /^\[ag-ui\]\[enforce\] Removed unrecognised material at '[^']+' on RUN_FINISHED\./,
  // The operator's log of a configuration a test breaks on purpose; the 503 body says the same.
  /^Invalid configuration: /,
];

/** True for a console line a test provokes on purpose. */
export const isExpectedConsoleLog = (log: string): boolean => EXPECTED_CONSOLE.some((re) => re.test(log));

/**
 * workerd reports the resets tests ask for (`reset()` before each file, `abortAllDurableObjects()`
 * to restart objects) as exceptions with a stack, whatever the log level, through the pool's own
 * log handler, which a config cannot replace. That handler writes one message (its stack included)
 * per `process.stderr.write`; exactly those messages are dropped.
 */
const EXPECTED_RUNTIME =
  /^exception = workerd\/api\/unsafe\.c\+\+:\d+: failed: (remote\.)?jsg\.Error: Application called (abort|delete)AllDurableObjects\(\)\.\n/;

let installed = false;

/** Drops workerd's reports of test-requested resets from this process's stderr (once per process). */
export function dropExpectedRuntimeLogs(): void {
  if (installed) return;
  installed = true;
  const write = process.stderr.write.bind(process.stderr) as (...args: unknown[]) => boolean;
  process.stderr.write = ((chunk: unknown, ...rest: unknown[]) => {
    if (typeof chunk === "string" && EXPECTED_RUNTIME.test(chunk)) return true;
    return write(chunk, ...rest);
  }) as typeof process.stderr.write;
}
