/** `npm run bench`: every benchmark of the project, one after another, in one run. */
import { existsSync } from "node:fs";

const benches: [string, string][] = [
  ["./runtime.ts", "benchRuntime"],
  ["./extraction.ts", "benchExtraction"],
  ["./browser.ts", "benchBrowser"],
  ["./widget-size.ts", "benchWidgetSize"],
];

for (const [file, fn] of benches) {
  if (!existsSync(new URL(file, import.meta.url))) continue;
  const mod = (await import(file)) as Record<string, () => Promise<void>>;
  await mod[fn]();
}
