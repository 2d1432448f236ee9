/**
 * Job schedules as pure functions of an instant: validation of cron expressions and time zones,
 * the next occurrence after a moment, and which occurrence (if any) is due now. The job object
 * calls these with its clock, so tests can move time across daylight-saving changes.
 */
import { Cron } from "croner";

/** Nicknames accepted besides 5-field expressions (each stands for one 5-field expression). */
export const CRON_NICKNAMES: Record<string, string> = {
  "@yearly": "0 0 1 1 *",
  "@annually": "0 0 1 1 *",
  "@monthly": "0 0 1 * *",
  "@weekly": "0 0 * * 0",
  "@daily": "0 0 * * *",
  "@midnight": "0 0 * * *",
  "@hourly": "0 * * * *",
};

/** A run that starts later than this after its occurrence counts as a catch-up run. */
export const CATCH_UP_AFTER_MS = 5 * 60_000;
/** Missed occurrences counted at most (a long outage of a per-minute job stays cheap; `missed` then reads this). */
export const MAX_COUNTED_OCCURRENCES = 10_000;

const FIELD_NAMES = ["minute", "hour", "day-of-month", "month", "day-of-week"];

/** The 5-field form of an expression (nicknames expanded, spaces collapsed). */
export function canonicalCron(expr: string): string {
  const trimmed = expr.trim().replace(/\s+/g, " ");
  return CRON_NICKNAMES[trimmed.toLowerCase()] ?? trimmed;
}

function cronOf(expr: string, timeZone: string): Cron {
  return new Cron(canonicalCron(expr), { timezone: timeZone, mode: "5-part", paused: true });
}

/** Why a cron expression is not accepted, or null when it is a valid 5-field expression. */
export function cronProblem(expr: string): string | null {
  const text = canonicalCron(expr);
  if (text.startsWith("@"))
    return `"${expr}" is not a known nickname; use a 5-field expression or one of ${Object.keys(CRON_NICKNAMES).join(", ")}.`;
  const fields = text.split(" ");
  if (fields.length !== 5) {
    return `"${expr}" has ${fields.length} field${fields.length === 1 ? "" : "s"}; a schedule needs exactly 5 (${FIELD_NAMES.join(" ")}), e.g. "0 7 * * 1-5".`;
  }
  try {
    const cron = cronOf(text, "UTC");
    if (!cron.nextRun(new Date(0))) return `"${expr}" never matches a date.`;
  } catch (err) {
    const detail = (err as Error).message.replace(/^CronPattern:\s*/, "");
    return `"${expr}" is not a valid cron expression: ${detail}`;
  }
  return null;
}

/** Why a time zone is not accepted, or null when it is a known IANA zone. */
export function timeZoneProblem(timeZone: string): string | null {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone }).format(0);
    return null;
  } catch {
    return `"${timeZone}" is not a known IANA time zone (e.g. "Europe/Berlin", "America/New_York", "UTC").`;
  }
}

/** The first occurrence strictly after `afterMs`, in epoch ms, or null when there is none. */
export function nextOccurrence(expr: string, timeZone: string, afterMs: number): number | null {
  const next = cronOf(expr, timeZone).nextRun(new Date(afterMs));
  return next ? next.getTime() : null;
}

/** What is due at `nowMs` given the last occurrence already handled (`cursorMs`). */
export type DuePlan =
  | { kind: "none"; next: number | null }
  | { kind: "scheduled"; at: number }
  | { kind: "catch_up"; at: number; missed: number };

/**
 * The occurrence to run now: none, the one that just came, or after an outage a single
 * catch-up run standing for every occurrence missed (the latest one's instant is its key).
 */
export function planDue(expr: string, timeZone: string, cursorMs: number, nowMs: number): DuePlan {
  const cron = cronOf(expr, timeZone);
  let at = cron.nextRun(new Date(cursorMs))?.getTime() ?? null;
  if (at === null || at > nowMs) return { kind: "none", next: at };
  let latest = at;
  let count = 0;
  while (at !== null && at <= nowMs && count < MAX_COUNTED_OCCURRENCES) {
    latest = at;
    count++;
    at = cron.nextRun(new Date(at))?.getTime() ?? null;
  }
  if (count >= MAX_COUNTED_OCCURRENCES) {
    // Too many to count: jump straight to the latest one, so one catch-up covers the whole outage.
    const last = cron.previousRuns(1, new Date(nowMs + 1000))[0]?.getTime();
    if (last !== undefined && last <= nowMs && last > latest) latest = last;
  }
  if (count === 1 && nowMs - latest <= CATCH_UP_AFTER_MS) return { kind: "scheduled", at: latest };
  return { kind: "catch_up", at: latest, missed: count };
}

/** The calendar date (YYYY-MM-DD) and clock time (HHmm) of an instant in a time zone. */
export function localDateTime(ms: number, timeZone: string): { date: string; time: string } {
  const parts = new Intl.DateTimeFormat("en-US", {
    timeZone,
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
  }).formatToParts(ms);
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? "00";
  return { date: `${get("year")}-${get("month")}-${get("day")}`, time: `${get("hour")}${get("minute")}` };
}
