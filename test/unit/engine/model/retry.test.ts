import { describe, expect, it } from "vitest";
import {
  isRetryableStatus,
  parseRetryAfter,
  retryDelayMs,
} from "../../../../durable-objects/engine/model/retry";

const policy = { maxAttempts: 5, baseDelayMs: 100, maxDelayMs: 5000 };

describe("retry backoff", () => {
  it("honours Retry-After in seconds, as a date, and retry-after-ms, within the bound", () => {
    expect(parseRetryAfter(new Headers({ "retry-after": "2" }))).toBe(2000);
    expect(parseRetryAfter(new Headers({ "retry-after-ms": "150" }))).toBe(150);
    const now = Date.parse("2026-01-01T00:00:00Z");
    expect(parseRetryAfter(new Headers({ "retry-after": "Thu, 01 Jan 2026 00:00:03 GMT" }), now)).toBe(3000);
    expect(retryDelayMs(1, 2000, policy)).toBe(2000);
    expect(retryDelayMs(1, 60_000, policy)).toBe(5000);
  });

  it("backs off exponentially without Retry-After", () => {
    const d1 = retryDelayMs(1, null, policy);
    const d3 = retryDelayMs(3, null, policy);
    expect(d1).toBeGreaterThanOrEqual(100);
    expect(d1).toBeLessThan(200);
    expect(d3).toBeGreaterThanOrEqual(400);
  });

  it("retries 429, 5xx and network errors but not other 4xx", () => {
    expect([429, 500, 503, undefined].map(isRetryableStatus)).toEqual([true, true, true, true]);
    expect([400, 401, 404, 422].map(isRetryableStatus)).toEqual([false, false, false, false]);
  });
});
