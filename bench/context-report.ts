/**
 * The context bench's report (see context.ts): each run's requests measured per loop (the run's
 * own and a sub-agent's), this loop's against the naive loop's, as a Markdown table.
 */
import {
  type Figures,
  type LoggedRequest,
  measure,
  pct,
  requestText,
  withMinuteStamp,
} from "./context-measure.ts";

/** Seconds a model turn takes in the naive loop's clock (a typical hosted model's turn). */
export const TURN_SECONDS = 8;
const SUB_AGENT = "You are a Cirrus sub-agent";

/** What one run of a loop gave: its requests as the model saw them, usage, the read-back check, time. */
export interface RunResult {
  requests: LoggedRequest[];
  usage: { input_tokens: number; cached_input_tokens?: number };
  readBackWhole: boolean;
  seconds: number;
}

const isSub = (r: LoggedRequest) => String(r.messages[0]?.content ?? "").startsWith(SUB_AGENT);
const tok = (chars: number) => Math.round(chars / 4).toLocaleString("en-US");

/** This loop's figures: each loop's requests measured as their own sequence, then added up. */
function ourFigures(requests: LoggedRequest[]): Figures[] {
  const parent = requests.filter((r) => !isSub(r)).map(requestText);
  const sub = requests.filter(isSub).map(requestText);
  return [measure(parent), ...(sub.length ? [measure(sub)] : [])];
}

function naiveFigures(requests: LoggedRequest[], start: Date | null): Figures[] {
  const texts = start ? withMinuteStamp(requests, start, TURN_SECONDS) : requests.map(requestText);
  const parent = texts.filter((_, i) => !isSub(requests[i]));
  const sub = texts.filter((_, i) => isSub(requests[i]));
  return [measure(parent), ...(sub.length ? [measure(sub)] : [])];
}

function sum(figures: Figures[]) {
  const requests = figures.reduce((n, f) => n + f.requests, 0);
  return {
    total: figures.reduce((n, f) => n + f.totalChars, 0),
    peak: Math.max(...figures.map((f) => f.peakChars)),
    billed: figures.reduce((n, f) => n + f.billedChars, 0),
    cached: figures.reduce((n, f) => n + f.cachedChars, 0),
    median: Math.min(...figures.map((f) => f.medianPrefixShare)),
    requests,
    /** Requests after the first of their loop's (the ones the prefix measures count). */
    later: requests - figures.length,
    under90: figures.reduce((n, f) => n + f.under90, 0),
    rewrote: figures.reduce((n, f) => n + f.rewrote, 0),
    appended: figures.reduce((n, f) => n + f.appended, 0),
  };
}

const cleared = (r: LoggedRequest) =>
  r.messages.filter((m) => m.role === "tool" && String(m.content ?? "").startsWith("[Cleared")).length;

/** Requests that cleared results (more stubs than the request before in the same loop). */
function clearingSteps(requests: LoggedRequest[]): number {
  let steps = 0;
  for (const loop of [requests.filter((r) => !isSub(r)), requests.filter(isSub)])
    for (let i = 1; i < loop.length; i++) if (cleared(loop[i]) > cleared(loop[i - 1])) steps++;
  return steps;
}

const row = (cells: string[]) => console.log(`| ${cells.join(" | ")} |`);

type Totals = ReturnType<typeof sum>;

export function report(title: string, naive: RunResult, ours: RunResult): void {
  const n = sum(naiveFigures(naive.requests, new Date("2026-12-01T09:00:10Z")));
  const plain = sum(naiveFigures(naive.requests, null));
  const c = sum(ourFigures(ours.requests));
  const steps = clearingSteps(ours.requests);
  console.log(
    `\n### ${title}: ${c.requests} model requests, ${steps} clearing steps (${ours.seconds.toFixed(0)} s; naive ${naive.seconds.toFixed(0)} s)\n`,
  );
  row(["figure", "naive loop", "this loop", "this / naive", "target"]);
  row(["---", "---:", "---:", "---:", "---"]);
  row(["total input, tokens (chars/4)", tok(n.total), tok(c.total), pct(c.total, n.total), "≤ 25%"]);
  prefixRows(n, c, steps);
  costRows(n, plain, c, ours);
}

/** The rows on how much of each request repeats the request before as its prefix. */
function prefixRows(n: Totals, c: Totals, steps: number): void {
  const meets = (f: Totals) => `${f.later - f.under90} of ${f.later}`;
  row([
    "requests (after the first) of which ≥ 90% is a byte-identical prefix of the request before",
    meets(n),
    meets(c),
    "",
    "every one",
  ]);
  row([
    "… of those under 90%: requests that kept the request before whole but append over a tenth of themselves (a new page)",
    `${n.appended}`,
    `${c.appended}`,
    "",
    "",
  ]);
  row([
    "requests (after the first) that repeat ≥ 90% of the request before as their prefix",
    `${n.later - n.rewrote} of ${n.later}`,
    `${c.later - c.rewrote} of ${c.later}`,
    "",
    `all but the ${steps} clearing steps`,
  ]);
  row([
    "input served from the request before's prefix: share of all · median request",
    `${pct(n.cached, n.total)} · ${(100 * n.median).toFixed(1)}%`,
    `${pct(c.cached, c.total)} · ${(100 * c.median).toFixed(1)}%`,
    "",
    "",
  ]);
}

/** The rows on peak and billed-equivalent input, the read-back check and the wire's cached tokens. */
function costRows(n: Totals, plain: Totals, c: Totals, ours: RunResult): void {
  const wire = ours.usage.cached_input_tokens ?? 0;
  row(["peak request, tokens", tok(n.peak), tok(c.peak), pct(c.peak, n.peak), "≤ 40%"]);
  row([
    "billed-equivalent input, cached at a tenth",
    tok(n.billed),
    tok(c.billed),
    pct(c.billed, n.billed),
    "≤ 40%",
  ]);
  row([
    "the same, against the naive loop without the date line (every request cached up to its newest message)",
    tok(plain.billed),
    tok(c.billed),
    pct(c.billed, plain.billed),
    "",
  ]);
  row(["first page's cleared result read back whole", "—", ours.readBackWhole ? "yes" : "NO", "", "yes"]);
  row([
    "cached input tokens in the run's usage (from the wire)",
    "—",
    `${wire.toLocaleString("en-US")} of ${ours.usage.input_tokens.toLocaleString("en-US")}`,
    pct(wire, ours.usage.input_tokens),
    "",
  ]);
}
