/**
 * Tool search: when a conversation's tools are too many to list (the provider's cap on a request's
 * tools, or a share of the context window spent on their definitions every turn), the tools of MCP
 * servers and HTTP endpoints are not listed. The model finds them with `find_tools` (name,
 * description and parameters of the best matches) and calls one with `call_tool`. The listed tools
 * stay the same all run, so the request's prefix stays byte-stable for the provider's cache, and
 * a `call_tool` call is taken as a call of the tool it names before any policy sees it.
 */
import { z } from "zod";
import type { ToolCall, ToolSpec } from "../model/model-types";
import { CirrusError } from "../errors";
import type { Tool } from "./tool-types";

export const FIND_TOOLS = "find_tools";
export const CALL_TOOL = "call_tool";

/** Matches a search returns by default, and at most. */
export const FIND_TOOLS_DEFAULT = 5;
export const FIND_TOOLS_MAX = 20;

const FindArgs = z.object({
  query: z
    .string()
    .trim()
    .min(1)
    .max(500)
    .describe(
      "What you need the tool for, in a few words, or part of its name (a server's name lists its tools).",
    ),
  limit: z
    .number()
    .int()
    .min(1)
    .max(FIND_TOOLS_MAX)
    .default(FIND_TOOLS_DEFAULT)
    .describe(`How many matches to return (1–${FIND_TOOLS_MAX}).`),
});

/** The `call_tool` arguments: the tool's name and its own arguments. */
export const CallArgs = z.object({
  name: z.string().min(1).max(200).describe("The tool's name, as find_tools gave it."),
  arguments: z
    .record(z.string(), z.unknown())
    .default({})
    .describe("The tool's arguments, matching the parameters find_tools gave."),
});

/** Lower-cased words of a name or text; snake, kebab and camel case split. */
function words(text: string): string[] {
  return text
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w.length > 1);
}

/** How well a tool matches the query's words: a word in its name counts thrice, in its description once. */
function score(query: readonly string[], tool: ToolSpec): number {
  const name = new Set(words(tool.name));
  const text = new Set(words(tool.description));
  let s = 0;
  for (const q of query) {
    if (name.has(q)) s += 3;
    else if ([...name].some((w) => w.startsWith(q) || q.startsWith(w))) s += 2;
    if (text.has(q)) s += 1;
  }
  return s;
}

/** The best matches for a query among the tools not listed, and how many others matched. */
export function searchTools(unlisted: readonly ToolSpec[], query: string, limit: number) {
  const q = [...new Set(words(query))];
  const ranked = unlisted
    .map((spec) => ({ spec, s: score(q, spec) }))
    .filter((m) => m.s > 0)
    .sort((a, b) => b.s - a.s || a.spec.name.localeCompare(b.spec.name));
  return {
    tools: ranked.slice(0, limit).map((m) => m.spec),
    more_matches: Math.max(0, ranked.length - limit),
    not_listed: unlisted.length,
  };
}

/** The two tools that stand for the unlisted ones. */
export function toolSearchTools(unlisted: () => readonly ToolSpec[], count: number): Tool[] {
  const find: Tool<typeof FindArgs> = {
    name: FIND_TOOLS,
    description: `Finds tools that are not listed here: ${count} more tools (of MCP servers and HTTP endpoints) are available. Search by what you need; each match comes with its parameters. Then call it with ${CALL_TOOL}.`,
    parameters: FindArgs,
    execute: ({ query, limit }) => searchTools(unlisted(), query, limit),
  };
  const call: Tool<typeof CallArgs> = {
    name: CALL_TOOL,
    description: `Calls a tool that ${FIND_TOOLS} found, by name, with its arguments.`,
    parameters: CallArgs,
    // Never reached: the tool step takes the call as a call of the tool it names (callOfNamedTool).
    execute: ({ name }) => {
      throw new CirrusError("not_callable_here", `${name} is called through ${CALL_TOOL} by the model only.`);
    },
  };
  return [find as Tool, call as Tool];
}

/**
 * A `call_tool` call as a call of the searchable tool it names (same id), so the conversation's
 * policy, the approvals, events, traces and the repeat guard all see the real tool; null when the
 * call is not `call_tool`, an error message when its arguments do not name a searchable tool.
 */
export function callOfNamedTool(
  call: ToolCall,
  searchable: readonly string[],
): ToolCall | { error: string } | null {
  if (call.function.name !== CALL_TOOL) return null;
  let raw: unknown;
  try {
    raw = JSON.parse(call.function.arguments || "{}");
  } catch {
    return { error: `${CALL_TOOL} needs JSON arguments: {"name": "...", "arguments": {...}}.` };
  }
  const parsed = CallArgs.safeParse(raw);
  if (!parsed.success) return { error: `${CALL_TOOL}: ${z.prettifyError(parsed.error)}` };
  const { name, arguments: args } = parsed.data;
  if (!searchable.includes(name)) {
    return {
      error: `${name} is not a tool ${FIND_TOOLS} finds: call a listed tool directly, and search for the others.`,
    };
  }
  return { ...call, function: { name, arguments: JSON.stringify(args) } };
}
