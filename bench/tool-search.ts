/**
 * What a conversation's tool list costs every request (o200k_base tokens of the definitions as the
 * request carries them) with N tools of MCP servers or HTTP endpoints: listed, as before tool
 * search, and as the model is offered them now (past 128 tools, or a tenth of the context window,
 * they are found with find_tools). The built-in tools are left out of both columns: they are the same.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { buildSync } from "esbuild";
import { encode } from "gpt-tokenizer/encoding/o200k_base";
import type { Tool } from "../durable-objects/engine/tools/tool.ts";

// The engine's modules import without extensions: bundled for Node, with the zod they use.
const ROOT = join(fileURLToPath(import.meta.url), "../..");
const dir = mkdtempSync(join(tmpdir(), "tool-search-"));
const outfile = join(dir, "tools.mjs");
buildSync({
  stdin: {
    contents: `export * from "./durable-objects/engine/tools/tool.ts";
      export * from "./durable-objects/engine/tools/tool-offer.ts";
      export { z } from "zod";`,
    resolveDir: ROOT,
    loader: "ts",
  },
  bundle: true,
  platform: "node",
  format: "esm",
  outfile,
  logLevel: "warning",
});
const { defineTool, offerLimits, ToolRegistry, z } = (await import(
  pathToFileURL(outfile).href
)) as typeof import("../durable-objects/engine/tools/tool.ts") &
  typeof import("../durable-objects/engine/tools/tool-offer.ts") & { z: typeof import("zod").z };
rmSync(dir, { recursive: true });

/** The built-in and deployed tools of the test deployment (every tool, the example tools on). */
const BUILT_INS = 36;
const CONTEXT_WINDOW = 128_000;

/** A tool shaped like a typical MCP server's: three described parameters. */
function searchable(n: number): Tool {
  return {
    ...defineTool({
      name: `crm__update_record_${n}`,
      description: `Updates field group ${n} of a CRM record; returns the record as saved.`,
      parameters: z.object({
        record_id: z.string().describe("The record's id, as search_records returns it."),
        fields: z.record(z.string(), z.string()).describe("Field names and their new values."),
        notify_owner: z.boolean().default(false).describe("Email the record's owner about the change."),
      }),
      execute: () => null,
    }),
    searchable: true,
  };
}

const tokens = (specs: unknown[]) =>
  specs.reduce<number>((n, t) => n + encode(JSON.stringify({ type: "function", function: t })).length, 0);

console.log("\n## Tool definitions per request (o200k_base tokens; built-in tools not counted)\n");
console.log("| MCP/HTTP tools | listed | offered now | what is offered |\n| ---: | ---: | ---: | --- |");
for (const count of [10, 30, 60, 100, 300]) {
  const registry = new ToolRegistry(Array.from({ length: count }, (_, n) => searchable(n)));
  const listed = tokens(registry.specs());
  // The built-ins count towards the 128: stand-ins that are never searchable.
  const limits = offerLimits(128 - BUILT_INS, CONTEXT_WINDOW);
  const offered = registry.limitOffer(limits).offering();
  const what = offered.unlisted.length ? "find_tools + call_tool" : "every tool";
  console.log(`| ${count} | ${listed} | ${tokens(offered.specs)} | ${what} |`);
}
