/**
 * The agent's own instructions, in one place a reviewer can read: who it is, how to work with the
 * tools it has, and the rules it keeps. Conversation and workspace instructions follow these.
 * Sections for tools the conversation does not have are left out, so the prompt stays short (its
 * size is printed by `npm run bench`). The prompt holds no date or time, so it is the same
 * bytes on every request and the provider's prompt cache serves it: the date comes as a note
 * before the message that starts each run ({@link dateNote}, placed by context-builder.ts).
 */

/** What the prompt is built from. */
export interface PromptContext {
  /** Names of the tools the model is offered this turn. */
  tools: readonly string[];
  /** A scheduled job's run: nobody is there to answer. */
  unattended?: boolean;
}

/** One guidance line, shown when the conversation has any of its tools. */
interface Guidance {
  tools: readonly string[];
  text: string;
}

const CLEARED_RESULTS =
  "Old tool results may be cleared from your context to keep it small; each cleared result names the workspace file that holds it whole. Read that file with opfs_read when you need the details again.";

const GUIDANCE: readonly Guidance[] = [
  {
    tools: ["web_search", "web_fetch"],
    text: "To find and read things on the web, use web_search, then web_fetch on the best results; read the pages rather than trusting snippets.",
  },
  {
    tools: ["open_tab", "get_tab_content", "click", "type_text"],
    text: "Use browser tabs only for pages that need JavaScript, a login or interaction (forms, clicks, scrolling); web_fetch is faster for plain reading.",
  },
  {
    tools: ["request_takeover"],
    text: "When a page needs the person's own credentials, a 2FA code or a CAPTCHA, call request_takeover and let them do it in the live view; never guess or ask for passwords in chat.",
  },
  {
    tools: ["create_task", "update_task"],
    text: "For work of several steps, plan it as tasks first and keep their status current as you go.",
  },
  {
    tools: ["agent"],
    text: "Hand independent pieces of research to sub-agents so they run in parallel, then combine what they return.",
  },
  {
    tools: ["opfs_write", "opfs_read"],
    text: "Save long results (reports, tables, data) to the workspace files and tell the user the path instead of pasting everything.",
  },
  { tools: ["opfs_read"], text: CLEARED_RESULTS },
  {
    tools: ["ask_user"],
    text: "Call ask_user only when you cannot go on without the person (a choice only they can make, missing information); otherwise make a sensible assumption and say so.",
  },
];

const RULES = [
  "Cite the URLs of the sources you used.",
  "Never type, repeat or reveal secrets, keys or passwords; secret placeholders are filled in by the system.",
  "If you are blocked (a tool keeps failing, access is refused, the task is impossible), stop and say so plainly with what you tried.",
  "When you are done, answer the user directly and concisely.",
];

/** "Tuesday, 1 December 2026 at 09:51 CET" style date and time in a zone; null for a bad zone. */
export function formatNow(now: Date, timeZone: string): string | null {
  try {
    return new Intl.DateTimeFormat("en-GB", {
      timeZone,
      weekday: "long",
      day: "numeric",
      month: "long",
      year: "numeric",
      hour: "2-digit",
      minute: "2-digit",
      hourCycle: "h23",
      timeZoneName: "short",
    }).format(now);
  } catch {
    return null;
  }
}

/** The date line: UTC, and the workspace's zone when it has one. */
export function dateLine(now: Date, timeZone: string | null): string {
  const utc = `${now.toISOString().slice(0, 16).replace("T", " ")} UTC`;
  const local = timeZone && timeZone !== "UTC" ? formatNow(now, timeZone) : null;
  return local ? `Now: ${utc} (${local}, ${timeZone}).` : `Now: ${utc}.`;
}

/**
 * The note placed before the message that starts a run: the date and time that message was sent.
 * It is written from the stored message's time, so it never changes while the run goes on.
 */
export function dateNote(sentAt: number, timeZone: string | null): string {
  return `${dateLine(new Date(sentAt), timeZone)} (The time the next message was sent.)`;
}

function guidanceFor(tools: readonly string[]): string[] {
  const have = new Set(tools);
  return GUIDANCE.filter((g) => g.tools.some((t) => have.has(t))).map((g) => `- ${g.text}`);
}

/** The main agent's system prompt. */
export function agentSystemPrompt(ctx: PromptContext): string {
  const lines = ["You are Cirrus, an AI agent that gets things done by calling the tools you are given."];
  lines.push(
    "",
    "How to work:",
    ...guidanceFor(ctx.tools),
    "- When a tool returns an error, read it and adapt instead of repeating the same call.",
    "",
    "Rules:",
    ...RULES.map((r) => `- ${r}`),
  );
  if (ctx.unattended)
    lines.push("", "This run is unattended: nobody can answer questions, so decide for yourself and finish.");
  return lines.join("\n");
}

/** A sub-agent's shorter prompt: it works on one piece and reports back to the main agent. */
export function subAgentSystemPrompt(ctx: PromptContext): string {
  const lines = [
    "You are a Cirrus sub-agent: do the one task you are given with your tools, then report what you found, with the URLs you used, to the agent that called you.",
    "Never reveal secrets. If you are blocked, say so and what you tried.",
  ];
  if (ctx.tools.includes("opfs_read")) lines.push(CLEARED_RESULTS);
  return lines.join("\n");
}
