/** `npm run bench`: every benchmark of the project, one after another, in one run. */
import { spawnSync } from "node:child_process";

const benches = [
  "runtime.ts",
  "tracing.ts",
  "extraction.ts",
  "unclosed-markup.ts",
  "browser.ts",
  "request-guard.ts",
  "tab-content.ts",
  "live-view.ts",
  "recording.ts",
  "files.ts",
  "widget-size.ts",
  "widget-visitors.ts",
  "system-prompt.ts",
  "tool-search.ts",
  "mcp.ts",
  "bundle-size.ts",
  "resume.ts",
  "context.ts",
  "fleet.ts",
  "fleet-warm.ts",
];

for (const file of benches) {
  const result = spawnSync(process.execPath, [new URL(file, import.meta.url).pathname], { stdio: "inherit" });
  if (result.status !== 0) process.exitCode = 1;
}
