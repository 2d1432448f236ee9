/**
 * Which tools a model request lists. Every tool, while they fit; past the limits, the tools that
 * may be searched for (MCP servers' and HTTP endpoints') are left out and `find_tools` and
 * `call_tool` stand for them (tool-search.ts). Built-in and deployed tools are always listed.
 */
import type { ToolSpec } from "../model/model-types";
import type { Tool } from "./tool-types";
import { toolSearchTools } from "./tool-search";

/** When the searchable tools stop being listed. */
export interface OfferLimits {
  /** The most tools one request may list (OpenAI's API refuses more than 128). */
  maxTools: number;
  /** The most estimated tokens the searchable tools' definitions may add to every request. */
  maxSearchableTokens: number;
}

/** The share of the context window the searchable tools' definitions may take before they are searched for. */
export const SEARCHABLE_TOKEN_SHARE = 0.1;

/** The limits for a request to a model of this context window that lists at most `maxTools` tools. */
export const offerLimits = (maxTools: number, contextTokens: number): OfferLimits => ({
  maxTools,
  maxSearchableTokens: Math.floor(contextTokens * SEARCHABLE_TOKEN_SHARE),
});

/** What the model is offered. */
export interface Offering {
  specs: ToolSpec[];
  /** The tools left out of the list, found through `find_tools`. */
  unlisted: ToolSpec[];
  /** `find_tools` and `call_tool` when tools are left out; empty otherwise. */
  searchTools: Map<string, Tool>;
}

/** What tool definitions add to every request, four characters a token (in their wire form). */
export function estimateToolTokens(tools: readonly ToolSpec[]): number {
  let chars = 0;
  for (const t of tools) chars += JSON.stringify({ type: "function", function: t }).length;
  return Math.ceil(chars / 4);
}

/**
 * The offering for these tools (in registration order) under the limits. A registry's gate (a widget
 * visitor's policy) need not allow `find_tools` and `call_tool`: they reach only the tools it holds,
 * which the gate allowed already.
 */
export function planOffering(
  tools: readonly Tool[],
  specOf: (t: Tool) => ToolSpec,
  limits: OfferLimits | null,
): Offering {
  const specs = tools.map(specOf);
  const all: Offering = { specs, unlisted: [], searchTools: new Map() };
  const searchable = specs.filter((_, i) => tools[i].searchable);
  if (!limits || searchable.length === 0) return all;
  if (specs.length <= limits.maxTools && estimateToolTokens(searchable) <= limits.maxSearchableTokens)
    return all;
  const listed = specs.filter((_, i) => !tools[i].searchable);
  const search = toolSearchTools(() => searchable, searchable.length);
  return {
    specs: [...listed, ...search.map(specOf)],
    unlisted: searchable,
    searchTools: new Map(search.map((t) => [t.name, t])),
  };
}
