/**
 * What the model reads when it calls a tool that does not exist: the name it most likely meant (an
 * MCP tool called without its server's prefix, another case or separator, a typo), then the tools
 * it may call. Models guess bare names of namespaced tools often; a hint saves a wasted turn.
 */
import type { ToolRegistry } from "./tool";
import { CALL_TOOL, FIND_TOOLS } from "./tool-search";

/** Edit distance of two short names, or `limit + 1` once it passes `limit`. */
function distance(a: string, b: string, limit: number): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++)
      row[j] = Math.min(prev[j] + 1, row[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    if (Math.min(...row) > limit) return limit + 1;
    prev = row;
  }
  return prev[b.length];
}

const plain = (name: string) => name.toLowerCase().replace(/[-_\s]/g, "");

/** The registered tool a wrong name most likely meant, or null. */
export function nearestTool(name: string, names: readonly string[]): string | null {
  const prefixed = names.find((n) => n.endsWith(`__${name}`));
  if (prefixed) return prefixed;
  let best: { name: string; d: number } | null = null;
  for (const candidate of names) {
    const d = plain(candidate) === plain(name) ? 0 : distance(name, candidate, 2);
    if (d <= 2 && name.length >= 5 && (!best || d < best.d)) best = { name: candidate, d };
  }
  return best?.name ?? null;
}

/** The error message of a call of `name`, which no tool has. */
export function unknownToolMessage(name: string, registry: ToolRegistry): string {
  const { specs, unlisted } = registry.offering();
  const near = nearestTool(name, registry.names());
  const listed = specs.some((t) => t.name === near);
  const hint = near ? ` Did you mean ${near}?${listed ? "" : ` Call it with ${CALL_TOOL}.`}` : "";
  const more = unlisted.length ? ` ${unlisted.length} more are found with ${FIND_TOOLS}.` : "";
  return `There is no tool named "${name}".${hint} Available tools: ${specs.map((t) => t.name).join(", ")}.${more}`;
}
