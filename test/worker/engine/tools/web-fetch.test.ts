import { describe, expect, inject, it } from "vitest";
import { api, createConversation, modelRequests, runMessage, script, uniqueKey } from "../../helpers";
import { callWebTool as callTool, page, webFetch, webFetchWith } from "./web-helpers";

async function guardedFetch(url: string) {
  // The SSRF guard on, as in production (the test bindings lift it).
  return webFetchWith({ allowPrivateNetwork: false }, { url });
}

describe("web_fetch", () => {
  it("returns an HTML page's main content as Markdown without navigation, sidebar, cookie banner or footer", async () => {
    const { status, body } = await webFetch({ url: page("/web/article") });
    expect(status).toBe(200);
    const r = body.result;
    expect(r).toMatchObject({
      url: page("/web/article"),
      content_type: "text/html",
      truncated: false,
      final_url: page("/web/article"),
    });
    expect(r.content).toContain("# Rivers of Europe");
    expect(r.content).toContain("## Longest rivers");
    expect(r.content).toMatch(/^- Volga, 3,530 km$/m);
    expect(r.content).toContain("| River | Length |");
    expect(r.content).toContain("| Rhine | 1,230 km |");
    expect(r.content).toContain(`[raw data](${page("/data/rivers.csv")})`);
    expect(r.content).toContain("```\nlengths = [3530, 2850, 2428]");
    for (const junk of ["Sport", "cookies", "Celebrity gossip", "All rights reserved"])
      expect(r.content).not.toContain(junk);
  });

  for (const [label, text] of [
    ["gbk", "中文网页"],
    ["gb18030", "中文网页€"],
    ["shift_jis", "日本語のページ"],
    ["euc-kr", "한국어 페이지"],
    ["windows-1252", "Café – naïve"],
  ]) {
    it(`decodes ${label} declared in the Content-Type header`, async () => {
      const { body } = await webFetch({ url: page(`/web/charset/${label}`) });
      expect(body.result.content).toContain(text);
    });
    it(`decodes ${label} declared only in a meta tag`, async () => {
      const { body } = await webFetch({ url: page(`/web/charset-meta/${label}`) });
      expect(body.result.content).toContain(text);
    });
  }

  it("says a page drawn by script shows no content, quoting its description as such and pointing to a tab", async () => {
    const { status, body } = await webFetch({ url: page("/web/script-shell") });
    expect(status).toBe(200);
    expect(body.result.content).toBe(
      "# Trail map\n\n(The page's HTML shows no readable content: it is probably drawn by script. To read it as a browser shows it, open it with open_tab and read it with get_tab_content.)\n\nThe page's own description of itself: Every marked trail of the valley, with heights and times.",
    );
    expect(body.result.title).toBe("Trail map");
  });

  it("says a page whose content is only links around pictures shows no content", async () => {
    const { body } = await webFetch({ url: page("/web/picture-shell") });
    expect(body.result.content).toBe(
      "# The Barn\n\n(The page's HTML shows no readable content: it is probably drawn by script. To read it as a browser shows it, open it with open_tab and read it with get_tab_content.)\n\nThe page's own description of itself: Hand-thrown bowls and cups.",
    );
  });

  it("titles a page by its headline, without the site's name its <title> adds", async () => {
    const { body } = await webFetch({ url: page("/web/headline") });
    expect(body.result.title).toBe("Rivers of Europe");
    expect(body.result.content).toMatch(/^# Rivers of Europe\n\nThe Danube flows/);
  });

  it("pretty-prints JSON", async () => {
    const { body } = await webFetch({ url: page("/web/json") });
    expect(body.result.content_type).toBe("application/json");
    expect(body.result.content).toBe(
      '{\n  "name": "cirrus",\n  "tags": [\n    "a",\n    "b"\n  ],\n  "n": 1\n}',
    );
  });

  it("returns plain text as is", async () => {
    const { body } = await webFetch({ url: page("/web/text") });
    expect(body.result).toMatchObject({
      content_type: "text/plain",
      content: "line one\n  <b>not html</b>\nline three",
    });
  });

  it("describes an image by type and size", async () => {
    const { body } = await webFetch({ url: page("/web/image") });
    expect(body.result.content).toContain("[image/png content, 16 B: not shown.");
  });

  it("follows redirects and reports the final URL", async () => {
    const { body } = await webFetch({ url: page("/web/redirect") });
    expect(body.result.url).toBe(page("/web/redirect"));
    expect(body.result.final_url).toBe(page("/web/article"));
    expect(body.result.content).toContain("The Danube flows through ten countries");
  });

  it("stops after too many redirects", async () => {
    const { status, body } = await webFetch({ url: page("/web/redirect-loop") });
    expect(status).toBe(422);
    expect(body.error.code).toBe("too_many_redirects");
  });

  it("cuts the content at max_length and says it is truncated", async () => {
    const { body } = await webFetch({ url: page("/web/article"), max_length: 40 });
    expect(body.result.content).toHaveLength(40);
    expect(body.result.truncated).toBe(true);
  });

  it("stops downloading a huge page at the byte cap and marks it truncated", async () => {
    const { status, body } = await webFetch({ url: page("/web/huge") });
    expect(status).toBe(200);
    expect(body.result.truncated).toBe(true);
    expect(body.result.content).toContain("A very long page keeps going");
  });

  it("reads the first 1 MB of a page's markup and marks the rest as truncated", async () => {
    const { status, body } = await webFetch({ url: page("/web/markup-heavy") });
    expect(status).toBe(200);
    expect(body.result.truncated).toBe(true);
    expect(body.result.content).toContain("The first chapter of the manual explains");
    expect(body.result.content).not.toContain("The closing line of the manual.");
    expect(body.result.content.length).toBeLessThan(40_000);
  });

  it("gives up on a page slower than the timeout with a clear error", async () => {
    const { status, body } = await webFetch({ url: page("/web/slow") });
    expect(status).toBe(422);
    expect(body.error.code).toBe("timeout");
    expect(body.error.message).toContain("did not finish loading within 3 s");
  });

  it("reports an HTTP error status with the page's text", async () => {
    const { status, body } = await webFetch({ url: page("/web/missing") });
    expect(status).toBe(422);
    expect(body.error.code).toBe("http_error");
    expect(body.error.message).toContain("HTTP 404");
  });

  it("says a bot check answered instead of the page, and how to get past it", async () => {
    const { status, body } = await webFetch({ url: page("/web/challenge") });
    expect(status).toBe(422);
    expect(body.error).toEqual({
      code: "bot_check",
      message: `${page("/web/challenge")} answered with a bot check (a challenge page that needs a browser running its scripts), not the page. Open it with open_tab and read it with get_tab_content; if the tab shows a CAPTCHA, call request_takeover.`,
    });
  });

  it("passes on when the server asks to be retried, in seconds or as a date", async () => {
    const busy = await webFetch({ url: page("/web/busy") });
    expect(busy.body.error.code).toBe("http_error");
    expect(busy.body.error.message).toBe(
      `${page("/web/busy")} answered HTTP 429 Too Many Requests. The server asks to be retried after 120 s. Page text: slow down`,
    );
    const until = await webFetch({ url: page("/web/busy-until") });
    expect(until.body.error.message).toContain(
      "answered HTTP 503 Service Unavailable. The server asks to be retried after 2026-10-21T07:28:00.000Z.",
    );
  });

  it("refuses schemes other than http and https", async () => {
    for (const url of ["file:///etc/passwd", "ftp://example.com/x", "javascript:alert(1)"]) {
      const { status, body } = await webFetch({ url });
      expect(status).toBe(422);
      expect(body.error.code).toBe("unsupported_url");
    }
  });

  it("rejects a URL that is not absolute", async () => {
    const { body } = await webFetch({ url: "not a url" });
    expect(body.error.code).toBe("invalid_url");
  });

  it("summarises the page with the conversation's model when a prompt is given", async () => {
    const key = uniqueKey("summary");
    await script(key, [{ text: "The Danube crosses ten countries." }]);
    const conv = await createConversation(key);
    const { body } = await callTool(conv, "web_fetch", {
      url: page("/web/article"),
      prompt: "Which river crosses most countries?",
    });
    expect(body.result).toMatchObject({
      content: "The Danube crosses ten countries.",
      final_url: page("/web/article"),
    });
    const [request] = await modelRequests(key);
    const user = request.messages.find((m) => m.role === "user")!.content as string;
    expect(user).toContain("Which river crosses most countries?");
    expect(user).toContain("The Danube flows through ten countries");
    expect(request.tools ?? []).toHaveLength(0);
  });

  it("is used by the model in a run: fetch, summary, answer", async () => {
    const key = uniqueKey("run-fetch");
    await script(key, [
      {
        tool_calls: [
          {
            id: "call_f",
            name: "web_fetch",
            arguments: { url: page("/web/article"), prompt: "Longest river?" },
          },
        ],
      },
      { text: "The Volga.", usage: { prompt_tokens: 5000, completion_tokens: 3 } },
      { text: "The longest river in Europe is the Volga." },
    ]);
    const conv = await createConversation(key);
    const events = await runMessage(conv, "Longest river in Europe?");
    const result = events.find((e) => e.data.type === "TOOL_CALL_RESULT")!.data;
    expect(JSON.parse(result.content as string)).toMatchObject({
      content: "The Volga.",
      final_url: page("/web/article"),
    });
    expect(events.at(-1)!.data.result).toBe("The longest river in Europe is the Volga.");
    const details = (await (await api(`/v1/conversations/${conv}`)).json()) as {
      usage: { input_tokens: number };
    };
    expect(details.usage.input_tokens).toBeGreaterThan(5000);
  });
});

describe("web_fetch with the private-network guard on", () => {
  it("refuses loopback, private, link-local and metadata addresses in any notation", async () => {
    const port = new URL(inject("pageUrl")).port;
    for (const host of [
      "127.0.0.1",
      "localhost",
      "2130706433",
      "0x7f.0.0.1",
      "0177.0.0.1",
      "127.1",
      "[::1]",
      "[::ffff:127.0.0.1]",
      "10.0.0.8",
      "192.168.1.1",
      "172.16.5.4",
      "169.254.169.254",
      "metadata.google.internal",
      "[fd00::1]",
      "[fe80::1]",
      "0.0.0.0",
    ]) {
      const outcome = await guardedFetch(`http://${host}:${port}/web/article`);
      expect(outcome, host).toMatchObject({ kind: "result", isError: true, code: "blocked_address" });
    }
  });

  it("refuses a redirect into a private address", async () => {
    // The first hop is let through by lifting the guard for it only (a public page cannot be served
    // offline); the redirect it answers with must still be checked and refused.
    const { guardedFetch: fetchWithGuard } = await import("../../../../durable-objects/engine/net/ssrf");
    let hops = 0;
    const fetcher: typeof fetch = (input, init) => {
      hops++;
      return fetch(String(input).replace("http://public.example", inject("pageUrl")), init);
    };
    for (const to of [
      "http://localhost/",
      "http://169.254.169.254/latest/meta-data/",
      "http://[::ffff:a9fe:a9fe]/",
      "http://0x0a000001/",
    ]) {
      hops = 0;
      const target = `http://public.example/web/redirect-private?to=${encodeURIComponent(to)}`;
      await expect(fetchWithGuard(target, {}, { allowPrivateNetwork: false }, fetcher)).rejects.toMatchObject(
        { code: "blocked_address" },
      );
      expect(hops).toBe(1);
    }
  });
});

describe("web_fetch summaries", () => {
  it("report a model failure as a summary error", async () => {
    const key = uniqueKey("summary-fail");
    await script(key, [{ error: { status: 400, message: "context too long" } }]);
    const conv = await createConversation(key);
    const { status, body } = await callTool(conv, "web_fetch", {
      url: page("/web/article"),
      prompt: "Summarise",
    });
    expect(status).toBe(422);
    expect(body.error.code).toBe("summary_failed");
    expect(body.error.message).toContain("could not be summarised");
  });
});
