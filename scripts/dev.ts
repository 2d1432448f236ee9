/**
 * `npm run dev`: builds web/, writes `.dev.vars` on the first run, starts `wrangler dev --local`
 * with the arguments given after `--`, and prints a banner (dashboard URL, sign-in token, model)
 * once it is ready.
 */
import { spawn } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { buildWeb } from "./build-web.ts";
import { banner, ensureDevVars } from "./first-run.ts";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
const READY = /Ready on (https?:\/\/\S+)/;

const run = ensureDevVars(join(ROOT, ".dev.vars"), join(ROOT, ".dev.vars.example"));
buildWeb();
const child = spawn(
  process.execPath,
  [join(ROOT, "node_modules/wrangler/bin/wrangler.js"), "dev", "--local", ...process.argv.slice(2)],
  {
    cwd: ROOT,
    stdio: ["inherit", "pipe", "inherit"],
    env: { ...process.env, CLOUDFLARE_CF_FETCH_ENABLED: "false", WRANGLER_SEND_METRICS: "false" },
  },
);
let shown = false;
let pending = "";
child.stdout?.on("data", (chunk: Buffer) => {
  process.stdout.write(chunk);
  if (shown) return;
  pending = (pending + chunk.toString()).slice(-4096);
  // biome-ignore lint/suspicious/noControlCharactersInRegex: strips the ANSI colours wrangler prints
  const m = READY.exec(pending.replace(/\u001b\[[0-9;]*m/g, ""));
  if (m) {
    shown = true;
    process.stdout.write(`${banner(m[1].replace(/\/$/, "").replace("0.0.0.0", "localhost"), run)}\n`);
  }
});
for (const sig of ["SIGINT", "SIGTERM"] as const) process.on(sig, () => child.kill(sig));
child.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
