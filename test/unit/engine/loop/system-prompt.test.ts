import { describe, expect, it } from "vitest";
import {
  agentSystemPrompt,
  dateLine,
  subAgentSystemPrompt,
} from "../../../../durable-objects/engine/loop/system-prompt";

const NOW = new Date("2026-12-01T08:51:00Z");

describe("the agent's system prompt", () => {
  it("carries today's date and time in UTC and in the workspace's time zone", () => {
    const prompt = agentSystemPrompt({ now: NOW, timeZone: "Europe/Berlin", tools: [] });
    expect(prompt).toContain("Now: 2026-12-01 08:51 UTC");
    expect(prompt).toContain("Tuesday, 1 December 2026 at 09:51");
    expect(prompt).toContain("Europe/Berlin");
  });

  it("falls back to UTC alone for no zone or an unknown one", () => {
    expect(dateLine(NOW, null)).toBe("Now: 2026-12-01 08:51 UTC.");
    expect(dateLine(NOW, "Mars/Olympus")).toBe("Now: 2026-12-01 08:51 UTC.");
  });

  it("explains only the tools the conversation has", () => {
    const withWeb = agentSystemPrompt({
      now: NOW,
      timeZone: null,
      tools: ["web_search", "web_fetch", "finish"],
    });
    expect(withWeb).toContain("web_search, then web_fetch");
    expect(withWeb).not.toContain("Use browser tabs");
    expect(withWeb).not.toContain("ask_user");
    const withTabs = agentSystemPrompt({ now: NOW, timeZone: null, tools: ["open_tab", "ask_user"] });
    expect(withTabs).toContain("Use browser tabs only");
    expect(withTabs).toContain("Call ask_user only when");
  });

  it("always states the rules: cite sources, never reveal secrets, say when blocked", () => {
    const prompt = agentSystemPrompt({ now: NOW, timeZone: null, tools: [] });
    expect(prompt).toContain("Cite the URLs");
    expect(prompt).toContain("Never type, repeat or reveal secrets");
    expect(prompt).toContain("If you are blocked");
  });

  it("gives sub-agents a shorter prompt of their own, with the date", () => {
    const tools = ["web_search", "web_fetch", "open_tab", "create_task", "opfs_write", "ask_user"];
    const sub = subAgentSystemPrompt({ now: NOW, timeZone: null, tools });
    expect(sub).toContain("sub-agent");
    expect(sub).toContain("2026-12-01 08:51 UTC");
    expect(sub.length).toBeLessThan(agentSystemPrompt({ now: NOW, timeZone: null, tools }).length / 2);
  });
});
