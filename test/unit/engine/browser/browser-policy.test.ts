import { describe, expect, it } from "vitest";
import { navigationRefusal } from "../../../../durable-objects/engine/browser/navigation-guard";
import {
  modelSeesImages,
  withScreenshots,
} from "../../../../durable-objects/engine/browser/screenshot-vision";
import { domainRefusal } from "../../../../durable-objects/engine/net/allowed-domains";
import { assertFetchable } from "../../../../durable-objects/engine/net/ssrf";

const closed = { allowPrivateNetwork: false };

describe("the browser's guard, now the shared SSRF guard", () => {
  it("refuses what web_fetch refuses: any IPv4 notation, metadata names, embedded credentials", () => {
    for (const url of [
      "http://127.1/",
      "http://0x7f000001/",
      "http://017700000001/",
      "http://[::ffff:7f00:1]/",
      "http://metadata.google.internal/",
      "http://intranet/",
    ]) {
      expect(navigationRefusal(url, closed), url).toMatch(/browser may not reach private or local addresses/);
    }
    expect(navigationRefusal("https://user:pw@example.com/", closed)).toMatch(/embedded credentials/);
    expect(navigationRefusal("https://example.com/", closed)).toBeNull();
  });
});

describe("allowed_domains of a workspace and a conversation", () => {
  const url = (u: string) => new URL(u);

  it("needs a URL to satisfy both lists, naming the one it fails", () => {
    const both = { workspaceDomains: ["example.com"], allowedDomains: ["docs.example.com"] };
    expect(domainRefusal(url("https://docs.example.com/a"), both)).toBeNull();
    expect(domainRefusal(url("https://www.example.com/"), both)).toMatch(
      /www\.example\.com is outside this conversation's allowed_domains \(docs\.example\.com\)/,
    );
    expect(domainRefusal(url("https://other.org/"), both)).toMatch(
      /outside this workspace's allowed_domains/,
    );
    expect(
      domainRefusal(url("https://other.org/"), { workspaceDomains: [], allowedDomains: null }),
    ).toBeNull();
  });

  it("applies to web_fetch through assertFetchable, even with private addresses allowed", () => {
    const policy = { allowPrivateNetwork: true, workspaceDomains: ["127.0.0.1"] };
    expect(() => assertFetchable(url("http://127.0.0.1:8080/"), policy)).not.toThrow();
    expect(() => assertFetchable(url("http://localhost:8080/"), policy)).toThrow(
      /localhost:8080 is outside this workspace's allowed_domains/,
    );
  });
});

describe("screenshots for vision models", () => {
  it("guesses vision from the model name when set to auto", () => {
    for (const m of [
      "gpt-4o-mini",
      "gpt-4.1",
      "gpt-5",
      "o3",
      "o4-mini",
      "claude-sonnet-4",
      "gemini-2.5-pro",
      "llava-13b",
      "openai/gpt-4o",
    ]) {
      expect(modelSeesImages("auto", m), m).toBe(true);
    }
    for (const m of ["gpt-3.5-turbo", "echo", "@cf/meta/llama-3.3-70b-instruct-fp8-fast", "mistral-small"]) {
      expect(modelSeesImages("auto", m), m).toBe(false);
    }
    expect(modelSeesImages(true, "echo")).toBe(true);
    expect(modelSeesImages(false, "gpt-4o")).toBe(false);
  });

  it("adds only the latest screenshot, after the whole block of tool results, and skips missing files", async () => {
    const shot = (id: string, path: string) => ({
      role: "tool" as const,
      tool_call_id: id,
      content: JSON.stringify({ tab_id: 2, saved_to: path, image_path: path }),
    });
    const messages = [
      { role: "user" as const, content: "look" },
      shot("a", "screenshots/c/old.png"),
      { role: "assistant" as const, content: null },
      shot("b", "screenshots/c/new.png"),
      { role: "tool" as const, tool_call_id: "c", content: '{"ok":true}' },
    ];
    const files: Record<string, Uint8Array> = { "screenshots/c/new.png": new Uint8Array([1, 2, 3]) };
    const out = await withScreenshots(messages, async (p) => files[p] ?? null);
    expect(out).toHaveLength(6);
    expect(out.slice(0, 5)).toEqual(messages);
    expect(out[5]).toEqual({
      role: "user",
      content: [
        { type: "text", text: expect.stringContaining("Screenshot of tab 2") },
        { type: "image_url", image_url: { url: "data:image/png;base64,AQID" } },
      ],
    });
    delete files["screenshots/c/new.png"];
    expect(await withScreenshots(messages, async (p) => files[p] ?? null)).toEqual(messages);
  });
});
