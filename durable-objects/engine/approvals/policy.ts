/**
 * The approval policy as plain logic: which rule of one approvals map governs a tool (globs,
 * most specific entry wins), and how the levels combine (the stricter wins; an unattended run
 * turns `ask` into a denial unless the job's own rules allow the tool).
 */
import type { ApprovalPolicy, ApprovalRule } from "../../../schemas/approvals";
import { RUN_CONTROL_TOOL_NAMES } from "../custom-tools/reserved-names";

/** Tools that are the run's own controls: globs never match them, only an exact entry does. */
export const GLOB_EXEMPT_TOOLS: ReadonlySet<string> = new Set(RUN_CONTROL_TOOL_NAMES);

const STRICTNESS: Record<ApprovalRule, number> = { allow: 0, ask: 1, deny: 2 };

/** The stricter of two rules. */
export function stricter(a: ApprovalRule, b: ApprovalRule): ApprovalRule {
  return STRICTNESS[b] > STRICTNESS[a] ? b : a;
}

/** Whether a glob (`*` any run of characters, `?` one character) matches a whole tool name. */
export function globMatches(pattern: string, name: string): boolean {
  if (!/[*?]/.test(pattern)) return pattern === name;
  const source = pattern
    .replace(/[.+^${}()|[\]\\]/g, "\\$&")
    .replace(/\*/g, ".*")
    .replace(/\?/g, ".");
  return new RegExp(`^${source}$`).test(name);
}

/** How specific a matching entry is: exact names first, then globs by their literal characters. */
function specificity(pattern: string): number {
  if (!/[*?]/.test(pattern)) return Number.MAX_SAFE_INTEGER;
  return pattern.replace(/[*?]/g, "").length * 2 + (pattern.includes("*") ? 0 : 1);
}

/** The entry of one map that governs a tool: the most specific match (ties: the stricter). */
export function matchRule(
  rules: ApprovalPolicy | null | undefined,
  toolName: string,
): { pattern: string; rule: ApprovalRule } | null {
  if (!rules) return null;
  let best: { pattern: string; rule: ApprovalRule; score: number } | null = null;
  for (const [pattern, rule] of Object.entries(rules)) {
    const exact = pattern === toolName;
    if (!exact && (GLOB_EXEMPT_TOOLS.has(toolName) || !globMatches(pattern, toolName))) continue;
    const score = specificity(pattern);
    if (!best || score > best.score || (score === best.score && stricter(best.rule, rule) !== best.rule))
      best = { pattern, rule, score };
  }
  return best && { pattern: best.pattern, rule: best.rule };
}

/** The levels a call is judged by. */
export interface ApprovalLevels {
  /** The workspace's `approvals` setting. */
  workspace?: ApprovalPolicy | null;
  /** The conversation's own `approvals` (in a job's conversation: the job's). */
  conversation?: ApprovalPolicy | null;
  /** The tool's own default, set when it was registered. */
  tool?: ApprovalRule;
  /** Runs of a scheduled job: nobody is there to ask. */
  unattended?: boolean;
}

/** What the policy says about one call. */
export type ApprovalVerdict =
  | { rule: "allow" }
  | { rule: "ask"; reason: string }
  | { rule: "deny"; reason: string; unattended?: boolean };

/** Judges one call of `toolName` by every level; the stricter rule wins. */
export function judge(toolName: string, levels: ApprovalLevels): ApprovalVerdict {
  const found: { where: string; pattern: string | null; rule: ApprovalRule }[] = [];
  const workspace = matchRule(levels.workspace, toolName);
  if (workspace) found.push({ where: "the workspace's approvals", ...workspace });
  const own = matchRule(levels.conversation, toolName);
  const ownName = levels.unattended ? "the job's approvals" : "the conversation's approvals";
  if (own) found.push({ where: ownName, ...own });
  if (levels.tool) found.push({ where: "the tool's own default", pattern: null, rule: levels.tool });
  const strictest = found.reduce<(typeof found)[number] | null>(
    (acc, f) => (!acc || stricter(acc.rule, f.rule) !== acc.rule ? f : acc),
    null,
  );
  if (!strictest || strictest.rule === "allow") return { rule: "allow" };
  const why = `${strictest.pattern ? `"${strictest.pattern}": ` : ""}"${strictest.rule}" in ${strictest.where}`;
  if (strictest.rule === "deny")
    return { rule: "deny", reason: `${toolName} is denied by ${why}; it was not run.` };
  if (!levels.unattended) return { rule: "ask", reason: `${toolName} needs approval (${why}).` };
  if (own?.rule === "allow") return { rule: "allow" };
  return { rule: "deny", reason: "unattended", unattended: true };
}
