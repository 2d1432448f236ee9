/**
 * What a widget visitor's conversation may use. Visitors are anonymous people on the open web
 * and the model does what they ask, so their tool set is the workspace's widget policy (tool
 * names and globs), enforced by the server: by default the web and browser tools (never
 * type_secret, nor upload_file, which reads workspace files), request_takeover, the task tools,
 * ask_user and finish — no MCP or HTTP tools, no sub-agents, no workspace files.
 */
import { globMatches } from "../approvals/policy";
import { BROWSER_TOOL_NAMES, RUN_CONTROL_TOOL_NAMES } from "../custom-tools/reserved-names";
import type { ToolGate } from "./tool";

/** A visitor's tools when the workspace lists none (`widget.tools` null). */
export const DEFAULT_VISITOR_TOOLS: readonly string[] = [
  "web_fetch",
  "web_search",
  ...BROWSER_TOOL_NAMES.filter((name) => name !== "type_secret" && name !== "upload_file"),
  "request_takeover",
  ...RUN_CONTROL_TOOL_NAMES,
];

/** The gate of a visitor's conversation: the owner's names and globs, else the default; `finish` always. */
export function visitorToolGate(
  patterns: readonly string[] | null,
): ToolGate & { patterns: readonly string[] } {
  const list = patterns ?? DEFAULT_VISITOR_TOOLS;
  return {
    patterns: list,
    allows: (name) => name === "finish" || list.some((p) => globMatches(p, name)),
    refusal: (name) =>
      `${name} is not available in a widget visitor's conversation: the workspace's widget policy (settings widget.tools) does not list it.`,
  };
}

/**
 * Whether any pattern could match a name starting with `prefix` (an MCP server's tools are all
 * `<server>__…`): servers no pattern could reach are not even connected for a visitor.
 */
export function mayMatchPrefix(patterns: readonly string[], prefix: string): boolean {
  return patterns.some((p) => {
    const wild = p.search(/[*?]/);
    if (wild < 0) return p.startsWith(prefix);
    const literal = p.slice(0, wild);
    return literal.startsWith(prefix) || prefix.startsWith(literal);
  });
}
