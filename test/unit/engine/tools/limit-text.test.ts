import { describe, expect, it } from "vitest";
import { createAskUserTool } from "../../../../durable-objects/engine/tools/ask-user";
import { bytesText, durationText, retryAfterText } from "../../../../durable-objects/engine/tools/limit-text";
import { createAgentTool } from "../../../../durable-objects/engine/tools/sub-agent";

describe("limits as tool descriptions state them", () => {
  it("writes durations in the largest whole unit", () => {
    expect(durationText(300_000)).toBe("5 minutes");
    expect(durationText(60_000)).toBe("60 seconds");
    expect(durationText(90_000)).toBe("90 seconds");
    expect(durationText(1_500)).toBe("1.5 seconds");
    expect(durationText(1_000)).toBe("1 second");
    expect(durationText(250)).toBe("250 milliseconds");
    expect(durationText(150_000)).toBe("150 seconds");
    expect(durationText(7_200_000)).toBe("2 hours");
  });

  it("writes byte counts in binary units", () => {
    expect(bytesText(512)).toBe("512 bytes");
    expect(bytesText(64 * 1024)).toBe("64 KiB");
    expect(bytesText(5 * 1024 * 1024)).toBe("5 MiB");
  });

  it("writes a server's Retry-After as seconds or a date, and quotes anything else", () => {
    expect(retryAfterText("120")).toBe("120 s");
    expect(retryAfterText(" 1.5 ")).toBe("1.5 s");
    expect(retryAfterText("Wed, 21 Oct 2026 07:28:00 GMT")).toBe("2026-10-21T07:28:00.000Z");
    // Not dates, though Date.parse reads them as days in 2000 and 2001.
    expect(retryAfterText("0.5")).toBe("0.5 s");
    expect(retryAfterText("-1")).toBe('"-1"');
    expect(retryAfterText("1 2")).toBe('"1 2"');
    expect(retryAfterText("12345678901")).toBe('"12345678901"');
    expect(retryAfterText(`soon ${"x".repeat(100)}`)).toBe(JSON.stringify(`soon ${"x".repeat(35)}`));
  });

  it("gives ask_user the configured timeout, not a fixed one", () => {
    expect(createAskUserTool({ timeoutMs: 90_000 }).description).toContain("after 90 seconds without one");
    expect(createAskUserTool({ timeoutMs: 300_000 }).description).toContain("after 5 minutes without one");
  });

  it("gives the agent tool its configured turn limit", () => {
    const tool = createAgentTool({ maxSteps: 7, run: async () => "" });
    expect(tool.description).toContain("at most 7 model turns");
  });
});
