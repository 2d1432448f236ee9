/** How the Usage page writes numbers, dollars and UTC days. */
import type { UsageTotals } from "../../schemas/usage";

const DAY_MS = 86_400_000;
const integer = new Intl.NumberFormat("en-US");

/** A whole number with thousands separators. */
export const count = (n: number): string => integer.format(n);

/** Dollars: cents from $1 up, more digits below so small spends do not read as $0.00. */
export function usd(v: number): string {
  const digits = v >= 1 || v === 0 ? 2 : v >= 0.01 ? 4 : 6;
  return `$${v.toLocaleString("en-US", { minimumFractionDigits: 2, maximumFractionDigits: digits })}`;
}

/** The cost of some totals: "no price" when none of the tokens had one, never $0. */
export function cost(t: Pick<UsageTotals, "cost_usd" | "unpriced_tokens">): string {
  if (t.cost_usd === null) return "no price";
  if (t.unpriced_tokens > 0) return `${usd(t.cost_usd)} + no price for ${count(t.unpriced_tokens)} tokens`;
  return usd(t.cost_usd);
}

/** The UTC day of an instant, `YYYY-MM-DD`. */
export const utcDay = (at: number): string => new Date(at).toISOString().slice(0, 10);

/** The day `n` days after (or before, negative) a `YYYY-MM-DD` day. */
export const addDays = (day: string, n: number): string =>
  utcDay(Date.parse(`${day}T00:00:00Z`) + n * DAY_MS);

/** A short axis label for a day: "Dec 1". */
export function shortDay(day: string): string {
  return new Date(`${day}T00:00:00Z`).toLocaleDateString("en-US", {
    month: "short",
    day: "numeric",
    timeZone: "UTC",
  });
}
