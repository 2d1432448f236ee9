import { describe, expect, inject, it } from "vitest";
import { api, createConversation } from "../../helpers";

const page = (path: string) => `${inject("pageUrl")}${path}`;

/** One page of each WCXB page type from the training part of the site-disjoint split (bench/site-split.ts; held-out pages are never named), read from ../shared/data. */
const PAGES: [type: string, id: string][] = [
  ["article", "0015"],
  ["documentation", "0665"],
  ["service", "0025"],
  ["forum", "0502"],
  ["collection", "0650"],
  ["listing", "0175"],
  ["product", "0610"],
];

/** Text as the benchmark compares it: lower-cased words joined by single spaces. */
const words = (text: string) => (text.toLowerCase().match(/[\p{L}\p{N}_]+/gu) ?? []).join(" ");

interface Truth {
  page_type: string;
  title: string;
  with: string[];
  without: string[];
}

describe("web_fetch on every page type of the WCXB set", () => {
  for (const [type, id] of PAGES) {
    it(`keeps the main content and drops the boilerplate of ${/^[aeiou]/.test(type) ? "an" : "a"} ${type} page`, async () => {
      const truth = (await (await fetch(page(`/wcxb/truth?id=${id}`))).json()) as Truth;
      expect(truth.page_type).toBe(type);
      const conv = await createConversation("echo");
      const res = await api(`/v1/conversations/${conv}/tools/web_fetch`, {
        method: "POST",
        json: { arguments: { url: page(`/wcxb?id=${id}`) } },
      });
      expect(res.status).toBe(200);
      const { result } = (await res.json()) as {
        result: { content: string; title: string; content_type: string };
      };
      expect(result.content_type).toBe("text/html");
      expect(result.content.startsWith("# ")).toBe(true);
      // The heading is the page's title; the snippets are checked in the content under it.
      const body = words(result.content.replace(/^# [^\n]*\n/, "").replace(/\]\([^)]*\)/g, "]"));
      for (const snippet of truth.with) expect(body, snippet).toContain(words(snippet));
      for (const snippet of truth.without) expect(body, snippet).not.toContain(words(snippet));
    }, 60_000);
  }
});
