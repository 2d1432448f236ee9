/**
 * Widget size: builds web/ and prints widget.js (and the dashboard bundle) raw and gzipped.
 * Run: `node bench/widget-size.ts` (Node 22 from node_modules/.bin). Target: widget < 25 KB gzip.
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
const WIDGET_BUDGET_GZIP = 25 * 1024;

execFileSync(process.execPath, [join(ROOT, "scripts/build-web.ts")], { stdio: "inherit" });
const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
for (const file of ["widget.js", "dashboard/app.js"]) {
  const raw = readFileSync(join(ROOT, "web/dist", file));
  const gz = gzipSync(raw, { level: 9 }).length;
  const budget =
    file === "widget.js"
      ? `  (budget ${kb(WIDGET_BUDGET_GZIP)} gzip: ${gz <= WIDGET_BUDGET_GZIP ? "ok" : "OVER"})`
      : "";
  console.log(`${file.padEnd(18)} raw ${kb(raw.length).padStart(9)}   gzip ${kb(gz).padStart(8)}${budget}`);
}
