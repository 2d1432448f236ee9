/** The Worker bundle's size as Cloudflare counts it (`wrangler deploy --dry-run`), total and gzip. */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const out = mkdtempSync(join(tmpdir(), "cirrus-bundle-"));
try {
  const run = spawnSync("npx", ["wrangler", "deploy", "--dry-run", "--outdir", out], { encoding: "utf8" });
  const line = `${run.stdout}${run.stderr}`.match(/Total Upload: ([\d.]+ KiB) \/ gzip: ([\d.]+ KiB)/);
  if (!line) throw new Error(`wrangler did not report a size:\n${run.stderr}`);
  console.log(`\nWorker bundle: ${line[1]} total, ${line[2]} gzip (limit 3 MiB gzip on the free plan)`);
} finally {
  rmSync(out, { recursive: true, force: true });
}
