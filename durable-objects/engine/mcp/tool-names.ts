/**
 * The names the model sees for MCP tools: `<server>__<tool>`, reduced to the characters and the
 * 64-character length function-calling APIs accept. Names that would clash (after cleaning, after
 * cutting, or with a tool already registered) get a short hash of the original name, assigned in
 * a fixed order, so the same servers always produce the same names.
 */
import { TOOL_NAME_PATTERN } from "../../../schemas/patterns";

/** Longest tool name OpenAI-compatible APIs accept. */
export const MAX_TOOL_NAME = 64;
/** Between the server's name and the tool's. */
export const NAME_SEPARATOR = "__";

/** One MCP tool to name. */
export interface ToolToName {
  server: string;
  tool: string;
}

/** FNV-1a of a string as 8 hex digits: short, stable, no crypto needed for naming. */
export function shortHash(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h.toString(16).padStart(8, "0");
}

/** The tool's name with every character the pattern refuses replaced by `_`. */
function clean(name: string): string {
  return name.replace(/[^a-zA-Z0-9_-]/g, "_") || "tool";
}

/** `<server>__<tool>` cut to fit, with `_<hash>` when it had to be cut or must be told apart. */
function candidate(t: ToolToName, withHash: boolean): string {
  const base = `${t.server}${NAME_SEPARATOR}${clean(t.tool)}`;
  const needsHash = withHash || base.length > MAX_TOOL_NAME;
  if (!needsHash) return base;
  const suffix = `_${shortHash(`${t.server}/${t.tool}`)}`;
  return base.slice(0, MAX_TOOL_NAME - suffix.length) + suffix;
}

/**
 * Model-facing names for MCP tools, keyed `server/tool`. `taken` holds names already in use
 * (built-in and HTTP tools); MCP tools never replace them.
 */
export function assignToolNames(tools: ToolToName[], taken: Iterable<string> = []): Map<string, string> {
  const used = new Set(taken);
  const sorted = [...tools].sort((a, b) =>
    a.server === b.server ? (a.tool < b.tool ? -1 : a.tool > b.tool ? 1 : 0) : a.server < b.server ? -1 : 1,
  );
  const out = new Map<string, string>();
  for (const t of sorted) {
    let name = candidate(t, false);
    if (used.has(name)) name = candidate(t, true);
    for (let i = 2; used.has(name); i++) name = candidate({ ...t, tool: `${t.tool}#${i}` }, true);
    if (!TOOL_NAME_PATTERN.test(name)) throw new TypeError(`MCP tool name ${name} does not fit the pattern`);
    used.add(name);
    out.set(`${t.server}/${t.tool}`, name);
  }
  return out;
}
