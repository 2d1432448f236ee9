import { describe, expect, it } from "vitest";
import { createAskUserTool } from "../../../../durable-objects/engine/tools/ask-user";
import { bytesText, durationText } from "../../../../durable-objects/engine/tools/limit-text";
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

  it("gives ask_user the configured timeout, not a fixed one", () => {
    expect(createAskUserTool({ timeoutMs: 90_000 }).description).toContain("after 90 seconds without one");
    expect(createAskUserTool({ timeoutMs: 300_000 }).description).toContain("after 5 minutes without one");
  });

  it("gives the agent tool its configured turn limit", () => {
    const tool = createAgentTool({ maxSteps: 7, run: async () => "" });
    expect(tool.description).toContain("at most 7 model turns");
  });
});
