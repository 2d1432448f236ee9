/**
 * Builds web/ into web/dist: widget.js (one minified IIFE) and the dashboard (HTML + app.js); and
 * the browser's in-page walker into its script string (scripts/build-walker.ts).
 * Run with `npm run build:web`; vitest.config.ts and the dev/deploy scripts call it too.
 */
import { copyFileSync, mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { buildSync } from "esbuild";
import { buildRecorder } from "./build-recorder.ts";
import { buildWalker } from "./build-walker.ts";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
/** Browsers the widget supports: ES2020, i.e. anything from 2020 on. */
const TARGET = "es2020";

/** Builds the widget and the dashboard into web/dist, and the in-page walker (synchronous, ~100 ms). */
export function buildWeb(): void {
  buildWalker();
  const out = join(ROOT, "web", "dist");
  mkdirSync(join(out, "dashboard"), { recursive: true });
  const common = {
    bundle: true,
    minify: true,
    format: "iife" as const,
    target: TARGET,
    legalComments: "none" as const,
    logLevel: "warning" as const,
  };
  buildSync({ ...common, entryPoints: [join(ROOT, "web/widget/index.ts")], outfile: join(out, "widget.js") });
  buildSync({
    ...common,
    entryPoints: [join(ROOT, "web/dashboard/app.ts")],
    outfile: join(out, "dashboard/app.js"),
  });
  // The recording player: rrweb's Replayer, loaded only when a recording is played.
  buildSync({
    ...common,
    entryPoints: [join(ROOT, "web/dashboard/replay-player.ts")],
    outfile: join(out, "dashboard/replay.js"),
  });
  copyFileSync(join(ROOT, "node_modules/rrweb/dist/style.min.css"), join(out, "dashboard/replay.css"));
  copyFileSync(join(ROOT, "web/dashboard/index.html"), join(out, "dashboard/index.html"));
  copyFileSync(join(ROOT, "web/static/_headers"), join(out, "_headers"));
  buildRecorder();
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) buildWeb();
