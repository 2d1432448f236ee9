/**
 * What the context bench measures on the request bodies a scripted model received: each
 * request's size, how much of it is a byte-identical prefix of the request before it (what an
 * exact-prefix cache serves), and the input a provider bills with cached input at a tenth.
 */

/** One request body as the scripted model logged it. */
export interface LoggedRequest {
  messages: { role: string; content?: unknown }[];
  tools?: unknown;
}

/** A request as a prefix cache sees it: the tools, then every message in order. */
export const requestText = (r: LoggedRequest) =>
  [JSON.stringify(r.tools ?? null), ...r.messages.map((m) => JSON.stringify(m))].join("\n");

function commonPrefix(a: string, b: string): number {
  const max = Math.min(a.length, b.length);
  let n = 0;
  while (n < max && a.charCodeAt(n) === b.charCodeAt(n)) n++;
  return n;
}

/** The figures of one sequence of requests (one loop's: a run's, or a sub-agent's). */
export interface Figures {
  requests: number;
  /** Characters of all requests (tokens ≈ characters / 4). */
  totalChars: number;
  peakChars: number;
  /** Characters served from the previous request's prefix, summed. */
  cachedChars: number;
  /** Of the requests after the first, the median share that is a prefix of the one before. */
  medianPrefixShare: number;
  /**
   * Requests after the first of which under 90% is a byte-identical prefix of the request before
   * (the measure: what an exact-prefix cache serves of each request).
   */
  under90: number;
  /**
   * Requests after the first that do not repeat at least 90% of the request before as their
   * prefix (something before the newest messages changed: a clearing or summarising step).
   */
  rewrote: number;
  /**
   * Requests under 90% that kept the request before whole as their prefix: what they append
   * (a new page, say) is over a tenth of them, which no prefix cache can serve.
   */
  appended: number;
  /** Input billed with cached input at a tenth, in characters. */
  billedChars: number;
}

/** Measures a sequence of request texts. */
export function measure(texts: string[]): Figures {
  const shares: number[] = [];
  let cached = 0;
  let rewrote = 0;
  let appended = 0;
  for (let i = 1; i < texts.length; i++) {
    const p = commonPrefix(texts[i - 1], texts[i]);
    cached += p;
    shares.push(p / texts[i].length);
    if (p < 0.9 * texts[i - 1].length) rewrote++;
    else if (p < 0.9 * texts[i].length) appended++;
  }
  const total = texts.reduce((n, t) => n + t.length, 0);
  const sorted = [...shares].sort((a, b) => a - b);
  return {
    requests: texts.length,
    totalChars: total,
    peakChars: Math.max(...texts.map((t) => t.length)),
    cachedChars: cached,
    medianPrefixShare: sorted.length ? sorted[Math.floor(sorted.length / 2)] : 1,
    under90: shares.filter((s) => s < 0.9).length,
    rewrote,
    appended,
    billedChars: total - cached + cached / 10,
  };
}

/**
 * The naive loop's requests as they were sent before this change: no date note, and the date and
 * time to the minute in the system prompt's second line, the minute each request is sent at when
 * a model turn takes `turnSeconds`.
 */
export function withMinuteStamp(requests: LoggedRequest[], start: Date, turnSeconds: number): string[] {
  return requests.map((r, i) => {
    const at = new Date(start.getTime() + i * turnSeconds * 1000);
    const stamp = `Now: ${at.toISOString().slice(0, 16).replace("T", " ")} UTC.`;
    const messages = r.messages.filter(
      (m) => !(m.role === "system" && String(m.content).startsWith("Now: ")),
    );
    const [system, ...rest] = messages;
    const lines = String(system.content).split("\n");
    const stamped = { ...system, content: [lines[0], stamp, ...lines.slice(1)].join("\n") };
    return requestText({ ...r, messages: [stamped, ...rest] });
  });
}

/** `a` as a percentage of `b`. */
export const pct = (a: number, b: number) => `${((100 * a) / b).toFixed(1)}%`;
