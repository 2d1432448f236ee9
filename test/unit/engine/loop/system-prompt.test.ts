import { describe, expect, it } from "vitest";
import {
  agentSystemPrompt,
  dateLine,
  dateNote,
  subAgentSystemPrompt,
} from "../../../../durable-objects/engine/loop/system-prompt";

const NOW = new Date("2026-12-01T08:51:00Z");

describe("the agent's system prompt", () => {
  it("holds no date or time, so it is the same bytes on every request", () => {
    const prompt = agentSystemPrompt({ tools: ["web_fetch", "opfs_read"] });
    expect(prompt).not.toMatch(/Now:|\d{4}-\d{2}-\d{2}|UTC/);
    expect(agentSystemPrompt({ tools: ["web_fetch", "opfs_read"] })).toBe(prompt);
  });

  it("dates the message that starts a run in UTC and in the workspace's time zone", () => {
    const note = dateNote(NOW.getTime(), "Europe/Berlin");
    expect(note).toContain("Now: 2026-12-01 08:51 UTC");
    expect(note).toContain("Tuesday, 1 December 2026 at 09:51");
    expect(note).toContain("Europe/Berlin");
  });

  it("falls back to UTC alone for no zone or an unknown one", () => {
    expect(dateLine(NOW, null)).toBe("Now: 2026-12-01 08:51 UTC.");
    expect(dateLine(NOW, "Mars/Olympus")).toBe("Now: 2026-12-01 08:51 UTC.");
  });

  it("explains only the tools the conversation has", () => {
    const withWeb = agentSystemPrompt({ tools: ["web_search", "web_fetch", "finish"] });
    expect(withWeb).toContain("web_search, then web_fetch");
    expect(withWeb).not.toContain("Use browser tabs");
    expect(withWeb).not.toContain("ask_user");
    const withTabs = agentSystemPrompt({ tools: ["open_tab", "ask_user"] });
    expect(withTabs).toContain("Use browser tabs only");
    expect(withTabs).toContain("Call ask_user only when");
  });

  it("tells a model that can read files how to get a cleared result back", () => {
    expect(agentSystemPrompt({ tools: ["opfs_read"] })).toContain(
      "each cleared result names the workspace file that holds it whole",
    );
    expect(agentSystemPrompt({ tools: [] })).not.toContain("cleared");
  });

  it("always states the rules: cite sources, never reveal secrets, say when blocked", () => {
    const prompt = agentSystemPrompt({ tools: [] });
    expect(prompt).toContain("Cite the URLs");
    expect(prompt).toContain("Never type, repeat or reveal secrets");
    expect(prompt).toContain("If you are blocked");
  });

  it("gives sub-agents a shorter prompt of their own", () => {
    const tools = ["web_search", "web_fetch", "open_tab", "create_task", "opfs_write", "ask_user"];
    const sub = subAgentSystemPrompt({ tools });
    expect(sub).toContain("sub-agent");
    expect(sub.length).toBeLessThan(agentSystemPrompt({ tools }).length / 2);
  });
});
