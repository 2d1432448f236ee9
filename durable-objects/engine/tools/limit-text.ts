/** Configured limits written the way a tool description states them to the model. */

/** A duration in words: "90 seconds", "5 minutes", "1.5 seconds", "2 hours". */
export function durationText(ms: number): string {
  const unit = (n: number, word: string) => `${Number(n.toFixed(1))} ${word}${n === 1 ? "" : "s"}`;
  if (ms < 1000) return unit(ms, "millisecond");
  if (ms < 120_000 || ms % 60_000 !== 0) return unit(ms / 1000, "second");
  if (ms < 2 * 3_600_000 || ms % 3_600_000 !== 0) return unit(ms / 60_000, "minute");
  return unit(ms / 3_600_000, "hour");
}

/** A byte count in words: "512 bytes", "64 KiB", "5 MiB". */
export function bytesText(n: number): string {
  if (n < 1024) return `${n} bytes`;
  if (n < 1024 * 1024) return `${Number((n / 1024).toFixed(1))} KiB`;
  return `${Number((n / (1024 * 1024)).toFixed(1))} MiB`;
}

/**
 * A server's `Retry-After` in words: seconds (a fraction too) as "120 s", an HTTP date as ISO 8601;
 * anything else quoted, bounded. Only a value naming a month is read as a date: V8's Date.parse
 * takes "0.5", "2" or "-1" for days in 2000 or 2001.
 */
export function retryAfterText(value: string): string {
  const trimmed = value.trim();
  if (/^\d{1,9}(\.\d+)?$/.test(trimmed)) return `${Number(trimmed)} s`;
  const at = /[a-z]{3}/i.test(trimmed) ? Date.parse(trimmed) : Number.NaN;
  return Number.isNaN(at) ? JSON.stringify(trimmed.slice(0, 40)) : new Date(at).toISOString();
}
