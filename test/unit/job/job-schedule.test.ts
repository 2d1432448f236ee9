import { describe, expect, it } from "vitest";
import { outputPathProblem, renderOutputPath, slugify } from "../../../durable-objects/job/output-path";
import {
  CATCH_UP_AFTER_MS,
  cronProblem,
  localDateTime,
  MAX_COUNTED_OCCURRENCES,
  nextOccurrence,
  planDue,
  timeZoneProblem,
} from "../../../durable-objects/job/schedule";
import { retryDelay, webhookUrlProblem } from "../../../durable-objects/job/webhook";

const at = (iso: string) => new Date(iso).getTime();
const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/** The next `n` occurrences after an instant. */
function occurrences(expr: string, tz: string, from: string, n: number): string[] {
  const out: string[] = [];
  let t = at(from);
  for (let i = 0; i < n; i++) {
    t = nextOccurrence(expr, tz, t)!;
    out.push(iso(t)!);
  }
  return out;
}

describe("cron expressions", () => {
  it("accept 5-field expressions and the documented nicknames", () => {
    for (const ok of [
      "0 7 * * 1-5",
      "*/15 * * * *",
      "30 2 * * *",
      "0 9 1 * *",
      "@daily",
      "@hourly",
      " 0  7 * * MON ",
    ])
      expect(cronProblem(ok), ok).toBeNull();
  });

  it("refuse other field counts, bad values and unknown nicknames, saying what is wrong", () => {
    expect(cronProblem("* * * * * *")).toMatch(/has 6 fields; a schedule needs exactly 5/);
    expect(cronProblem("0 7 * *")).toMatch(/has 4 fields/);
    expect(cronProblem("61 * * * *")).toMatch(/not a valid cron expression: .*minute/i);
    expect(cronProblem("every day")).toMatch(/has 2 fields/);
    expect(cronProblem("@reboot")).toMatch(/not a known nickname/);
    expect(cronProblem("0 0 31 2 *")).not.toBeNull();
  });
});

describe("time zones", () => {
  it("accept IANA names and refuse unknown ones", () => {
    expect(timeZoneProblem("Europe/Berlin")).toBeNull();
    expect(timeZoneProblem("UTC")).toBeNull();
    expect(timeZoneProblem("Mars/Olympus")).toMatch(/not a known IANA time zone/);
  });
});

describe("next occurrence across daylight-saving changes", () => {
  it("in Europe/Berlin a 02:30 job runs at 03:00 on the day the hour is skipped, and once when it repeats", () => {
    expect(occurrences("30 2 * * *", "Europe/Berlin", "2026-03-27T12:00:00Z", 3)).toEqual([
      "2026-03-28T01:30:00.000Z", // 02:30 CET
      "2026-03-29T01:00:00.000Z", // 02:30 does not exist: 03:00 CEST
      "2026-03-30T00:30:00.000Z", // 02:30 CEST
    ]);
    expect(occurrences("30 2 * * *", "Europe/Berlin", "2026-10-24T12:00:00Z", 2)).toEqual([
      "2026-10-25T00:30:00.000Z", // the first 02:30 (CEST); the repeated 02:30 CET does not run again
      "2026-10-26T01:30:00.000Z",
    ]);
  });

  it("in America/New_York a 09:00 job keeps local time when the clocks change", () => {
    expect(occurrences("0 9 * * *", "America/New_York", "2026-03-07T15:00:00Z", 2)).toEqual([
      "2026-03-08T13:00:00.000Z", // EDT from 8 March
      "2026-03-09T13:00:00.000Z",
    ]);
    expect(occurrences("0 9 * * *", "America/New_York", "2026-03-06T15:00:00Z", 1)).toEqual([
      "2026-03-07T14:00:00.000Z", // still EST
    ]);
  });

  it("renders {date} and {time} in the job's zone", () => {
    expect(localDateTime(at("2026-03-29T01:00:00Z"), "Europe/Berlin")).toEqual({
      date: "2026-03-29",
      time: "0300",
    });
    expect(localDateTime(at("2026-03-29T01:00:00Z"), "America/New_York")).toEqual({
      date: "2026-03-28",
      time: "2100",
    });
  });
});

describe("what is due", () => {
  const hourly = "0 * * * *";
  it("nothing before the next occurrence", () => {
    expect(planDue(hourly, "UTC", at("2026-01-01T10:00:00Z"), at("2026-01-01T10:59:00Z"))).toEqual({
      kind: "none",
      next: at("2026-01-01T11:00:00Z"),
    });
  });

  it("the occurrence that just came, as a scheduled run", () => {
    expect(planDue(hourly, "UTC", at("2026-01-01T10:00:00Z"), at("2026-01-01T11:00:02Z"))).toEqual({
      kind: "scheduled",
      at: at("2026-01-01T11:00:00Z"),
    });
  });

  it("after an outage, one catch-up run for the latest occurrence, counting the missed ones", () => {
    expect(planDue(hourly, "UTC", at("2026-01-01T10:00:00Z"), at("2026-01-01T15:30:00Z"))).toEqual({
      kind: "catch_up",
      at: at("2026-01-01T15:00:00Z"),
      missed: 5,
    });
    const week = planDue("* * * * *", "UTC", at("2026-01-01T00:00:00Z"), at("2026-01-08T00:00:30Z"));
    expect(week).toEqual({
      kind: "catch_up",
      at: at("2026-01-08T00:00:00Z"),
      missed: MAX_COUNTED_OCCURRENCES,
    });
    const late = at("2026-01-01T11:00:00Z") + CATCH_UP_AFTER_MS + 1;
    expect(planDue(hourly, "UTC", at("2026-01-01T10:00:00Z"), late)).toMatchObject({
      kind: "catch_up",
      missed: 1,
    });
  });
});

describe("output path templates", () => {
  it("render the placeholders into a workspace path", () => {
    expect(outputPathProblem("reports/{job}/{date}-{time}.md")).toBeNull();
    expect(
      renderOutputPath("reports/{job}/{date}-{time}-{run}.md", {
        job: "ai-news",
        date: "2026-03-29",
        time: "0300",
        run: "7",
      }),
    ).toBe("reports/ai-news/2026-03-29-0300-7.md");
    expect(slugify("AI News: Ünïcode & More!")).toBe("ai-news-unicode-more");
    expect(slugify("!!!")).toBe("job");
  });

  it("refuse unknown placeholders, .. and absolute paths", () => {
    expect(outputPathProblem("reports/{jobname}.md")).toMatch(
      /unknown placeholder \{jobname\}; allowed: \{job\}/,
    );
    expect(outputPathProblem("../{job}.md")).toMatch(/may not contain "\.\."/);
    expect(outputPathProblem("/etc/{job}.md")).toMatch(/relative to the workspace root/);
    expect(outputPathProblem("reports/{job.md")).toMatch(/unmatched/);
    expect(outputPathProblem("reports//{job}.md")).toMatch(/empty folder names/);
  });
});

describe("webhook URLs and retries", () => {
  it("refuse private and local addresses unless private networking is allowed", () => {
    expect(webhookUrlProblem("http://127.0.0.1:9000/hook", false)).toBe(
      "webhook_url points to a private or local address (127.0.0.1); webhooks are only sent to public addresses.",
    );
    expect(webhookUrlProblem("http://169.254.169.254/latest", false)).toMatch(/private or local address/);
    expect(webhookUrlProblem("http://localhost/hook", false)).toMatch(/local host name/);
    expect(webhookUrlProblem("https://hooks.example.com/cirrus", false)).toBeNull();
    expect(webhookUrlProblem("http://127.0.0.1:9000/hook", true)).toBeNull();
    expect(webhookUrlProblem("ftp://example.com/x", false)).toMatch(/Only http and https/);
    expect(webhookUrlProblem("not a url", false)).toMatch(/is not an absolute URL/);
  });

  it("back off exponentially up to a cap", () => {
    expect([1, 2, 3, 4].map((n) => retryDelay(n, 100))).toEqual([100, 200, 400, 800]);
    expect(retryDelay(30)).toBe(30 * 60_000);
  });
});
