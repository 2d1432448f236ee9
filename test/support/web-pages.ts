/**
 * Pages for the web tool tests, served by the local page server: articles in several charsets,
 * JSON, text, binaries, redirects, slow and huge pages, and the search engines' endpoints
 * answering with saved fixtures.
 */
import { readFileSync } from "node:fs";
import type { ServerResponse } from "node:http";
import { gunzipSync } from "node:zlib";
import { addPage } from "./page-server";
import "./status-pages";

const fixture = (name: string) => readFileSync(new URL(`../fixtures/search/${name}`, import.meta.url));

/** An article page with boilerplate around it (nav, sidebar, cookie banner, footer). */
export const ARTICLE_HTML = `<!doctype html><html><head><title>Rivers of Europe</title></head><body>
<nav class="site-nav"><a href="/">Home</a> <a href="/news">News</a> <a href="/sport">Sport</a></nav>
<div class="cookie-banner">We use cookies. <button>Accept all cookies</button></div>
<main><article><h1>Rivers of Europe</h1>
<p>The Danube flows through ten countries, more than any other river in the world, and links the Black Forest with the Black Sea over a length of 2,850 kilometres.</p>
<h2>Longest rivers</h2>
<ul><li>Volga, 3,530 km</li><li>Danube, 2,850 km</li><li>Ural, 2,428 km</li></ul>
<table><thead><tr><th>River</th><th>Length</th></tr></thead><tbody><tr><td>Rhine</td><td>1,230 km</td></tr><tr><td>Elbe</td><td>1,094 km</td></tr></tbody></table>
<p>Read the <a href="/data/rivers.csv">raw data</a> or compute the total with a short script:</p>
<pre><code>lengths = [3530, 2850, 2428]
print(sum(lengths))</code></pre>
<p>Rivers have shaped trade routes, borders and cities across the continent for thousands of years, and many capitals stand on their banks.</p>
</article></main>
<aside class="sidebar"><h3>Most read</h3><ul><li><a href="/x">Celebrity gossip headline</a></li></ul></aside>
<footer class="site-footer">Copyright 2026 Example News. All rights reserved.</footer>
</body></html>`;

const bytes = (hex: string) => Buffer.from(hex.replace(/\s+/g, ""), "hex");

/** "中文网页" in GBK, "日本語のページ" in Shift_JIS, "한국어 페이지" in EUC-KR, "Café" in Windows-1252. */
export const ENCODED = {
  gbk: { text: "中文网页", bytes: bytes("D6D0 CEC4 CDF8 D2B3") },
  gb18030: { text: "中文网页€", bytes: bytes("D6D0 CEC4 CDF8 D2B3 A2E3") },
  shift_jis: { text: "日本語のページ", bytes: bytes("93FA 967B 8CEA 82CC 8379 815B 8357") },
  "euc-kr": { text: "한국어 페이지", bytes: bytes("C7D1 B1B9 BEEE 20 C6E4 C0CC C1F6") },
  "windows-1252": { text: "Café – naïve", bytes: bytes("436166E9 2096 206E61EF7665") },
};

function encodedPage(label: string, word: Buffer, metaOnly: boolean): Buffer {
  const meta = metaOnly ? `<meta charset="${label}">` : "";
  const head = Buffer.from(
    `<!doctype html><html><head>${meta}<title>T</title></head><body><article><h1>`,
    "latin1",
  );
  const para = Buffer.from("</h1><p>", "latin1");
  const tail = Buffer.from(" is the word on this page, repeated for length. ".repeat(8), "latin1");
  return Buffer.concat([head, word, para, word, tail, Buffer.from("</p></article></body></html>", "latin1")]);
}

for (const [label, { bytes: word }] of Object.entries(ENCODED)) {
  addPage(`/web/charset/${label}`, (_req, res) => {
    res.writeHead(200, {
      "content-type": `text/html; charset=${label === "windows-1252" ? "iso-8859-1" : label}`,
    });
    res.end(encodedPage(label, word, false));
  });
  addPage(`/web/charset-meta/${label}`, (_req, res) => {
    res.writeHead(200, { "content-type": "text/html" });
    res.end(encodedPage(label, word, true));
  });
}

const send = (res: ServerResponse, status: number, type: string, body: string | Buffer) => {
  res.writeHead(status, { "content-type": type });
  res.end(body);
};

addPage("/web/article", (_req, res) => send(res, 200, "text/html; charset=utf-8", ARTICLE_HTML));
addPage("/web/script-shell", (_req, res) =>
  send(
    res,
    200,
    "text/html; charset=utf-8",
    `<!doctype html><html><head><title>Trail map</title><meta name="description" content="Every marked trail of the valley, with heights and times."></head><body><div id="root"></div><script src="/app.js"></script></body></html>`,
  ),
);
addPage("/web/picture-shell", (_req, res) =>
  send(
    res,
    200,
    "text/html; charset=utf-8",
    `<!doctype html><html><head><title>The Barn</title><meta name="description" content="Hand-thrown bowls and cups."></head><body><main>${[
      1, 2, 3, 4,
    ]
      .map((n) => `<a href="/shop/${n}"><img src="/shop/${n}.jpg" alt=""></a>`)
      .join("")}</main></body></html>`,
  ),
);
addPage("/web/headline", (_req, res) =>
  send(
    res,
    200,
    "text/html; charset=utf-8",
    ARTICLE_HTML.replace("<title>Rivers of Europe</title>", "<title>Rivers of Europe | Atlas Weekly</title>"),
  ),
);
/** A page of 1.2 MB of markup holding little text (a long manual's markup-heavy tables), its last line past 1 MB. */
addPage("/web/markup-heavy", (_req, res) => {
  const cell = (text: string) =>
    `<td class="api-cell api-cell--documented api-cell--stable" style="padding:2px 8px;vertical-align:top;border-bottom:1px solid #ddd;font-family:ui-monospace,monospace;white-space:nowrap">${text}</td>`;
  const row = `<tr class="api-row api-row--documented">${cell("fn")}${cell("")}${cell("")}</tr>`;
  const rows = row.repeat(Math.ceil(1_200_000 / row.length));
  send(
    res,
    200,
    "text/html; charset=utf-8",
    `<!doctype html><html><head><title>Manual</title></head><body><main><h1>Manual</h1><p>The first chapter of the manual explains how the ferry timetable is printed.</p><table>${rows}</table><p>The closing line of the manual.</p></main></body></html>`,
  );
});
addPage("/web/json", (_req, res) =>
  send(res, 200, "application/json", '{"name":"cirrus","tags":["a","b"],"n":1}'),
);
addPage("/web/text", (_req, res) =>
  send(res, 200, "text/plain; charset=utf-8", "line one\n  <b>not html</b>\nline three"),
);
addPage("/web/pdf", (_req, res) => {
  const pdf = Buffer.concat([
    Buffer.from("%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj\n<< /Type /Catalog >>\nendobj\n"),
    Buffer.alloc(20_000, 0x20),
  ]);
  res.writeHead(200, { "content-type": "application/pdf", "content-length": String(pdf.length) });
  res.end(pdf);
});
addPage("/web/image", (_req, res) => send(res, 200, "image/png", bytes("89504E470D0A1A0A0000000D49484452")));
addPage("/web/redirect", (_req, res) => {
  res.writeHead(302, { location: "/web/redirect-2" });
  res.end();
});
addPage("/web/redirect-2", (_req, res) => {
  res.writeHead(301, { location: "/web/article" });
  res.end();
});
addPage("/web/redirect-loop", (_req, res) => {
  res.writeHead(302, { location: "/web/redirect-loop" });
  res.end();
});
addPage("/web/redirect-private", (req, res, url) => {
  const to = url.searchParams.get("to") ?? `http://localhost:${req.socket.localPort}/web/article`;
  res.writeHead(302, { location: to });
  res.end();
});
addPage("/web/slow", (_req, res) => {
  const timer = setTimeout(() => send(res, 200, "text/plain", "finally"), 10_000);
  res.on("close", () => clearTimeout(timer));
});
addPage("/web/huge", (_req, res) => {
  res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
  res.write("<!doctype html><html><head><title>Huge</title></head><body><article>");
  const para = `<p>${"A very long page keeps going and going. ".repeat(25)}</p>\n`;
  let sent = 0;
  const pump = () => {
    while (sent < 40 * 1024 * 1024) {
      sent += para.length;
      if (!res.write(para)) return void res.once("drain", pump);
    }
    res.end("</article></body></html>");
  };
  res.on("close", () => {
    sent = Number.POSITIVE_INFINITY;
  });
  pump();
});

/** Search endpoints: the query picks the fixture (`captcha`, `empty`, `ads`, `fail`, `slow`, else the real page). */
function searchRoute(
  path: string,
  pick: (q: string, headers: Record<string, unknown>) => [number, string, string] | null,
) {
  addPage(path, (req, res, url) => {
    const q = url.searchParams.get("q") ?? url.searchParams.get("wd") ?? "";
    if (q === "slow") {
      const timer = setTimeout(() => send(res, 200, "text/plain", "late"), 10_000);
      res.on("close", () => clearTimeout(timer));
      return;
    }
    if (q === "fail") return send(res, 503, "text/html", "<html><body>Service Unavailable</body></html>");
    const [status, type, name] = pick(q, req.headers) ?? [404, "text/plain", ""];
    send(res, status, type, name ? fixture(name) : "not found");
  });
}

const HTML = "text/html; charset=utf-8";
const JSON_TYPE = "application/json; charset=utf-8";
searchRoute("/search/ddg/html/", (q) => {
  if (q === "captcha") return [202, HTML, "duckduckgo-anomaly.html"];
  if (q === "empty") return [200, HTML, "duckduckgo-empty.html"];
  if (q === "ads") return [200, HTML, "duckduckgo-ads.html"];
  if (q === "lite") return [200, HTML, "duckduckgo-lite.html"];
  return [200, HTML, "duckduckgo-html.html"];
});
searchRoute("/search/baidu/s", (q) => {
  if (q === "captcha") return [200, HTML, "baidu-captcha.html"];
  if (q === "bun") return [200, HTML, "baidu-2026-card.html"];
  return [200, HTML, "baidu-2018.html"];
});
addPage("/search/baidu/link", (_req, res, url) => {
  res.writeHead(302, { location: `https://resolved.example/${url.searchParams.get("url")}` });
  res.end();
});
searchRoute("/search/bing/v7.0/search", (q, h) => {
  if (h["ocp-apim-subscription-key"] !== "bing-test-key") return [401, JSON_TYPE, "bing-error-401.json"];
  return [200, JSON_TYPE, q === "wrapped" ? "bing-v5-wrapped.json" : "bing-v7.json"];
});
searchRoute("/search/google/customsearch/v1", () => [200, JSON_TYPE, "google-cse-bom.json"]);
searchRoute("/search/brave/res/v1/web/search", (_q, h) =>
  h["x-subscription-token"] === "brave-test-key"
    ? [200, JSON_TYPE, "brave.json"]
    : [422, JSON_TYPE, "brave-error-422.json"],
);
searchRoute("/search/searxng/search", (q) => {
  if (q === "nothing") return [200, JSON_TYPE, "searxng-all-failed.json"];
  if (q === "forbidden") return [403, "text/html", "searxng.json"];
  return [200, JSON_TYPE, "searxng.json"];
});

const pdfFixture = (name: string) => readFileSync(new URL(`../fixtures/pdf/${name}.pdf`, import.meta.url));
addPage("/web/pdf/report", (_req, res) => send(res, 200, "application/pdf", pdfFixture("report")));
addPage("/web/pdf/octet", (_req, res) => send(res, 200, "application/octet-stream", pdfFixture("report")));
addPage("/web/pdf/untyped", (_req, res) => {
  res.writeHead(200);
  res.end(pdfFixture("report"));
});
addPage("/web/pdf/encrypted", (_req, res) => send(res, 200, "application/pdf", pdfFixture("encrypted")));
addPage("/web/pdf/scan", (_req, res) => send(res, 200, "application/pdf", pdfFixture("scan")));

/** DOCX fixtures, made by scripts/make-docx-fixtures.ts. */
const DOCX_TYPE = "application/vnd.openxmlformats-officedocument.wordprocessingml.document";
const docxFixture = (name: string) => readFileSync(new URL(`../fixtures/docx/${name}.docx`, import.meta.url));
addPage("/web/docx/handbook", (_req, res) => send(res, 200, DOCX_TYPE, docxFixture("handbook")));
addPage("/web/docx/octet", (_req, res) =>
  send(res, 200, "application/octet-stream", docxFixture("handbook")),
);
addPage("/web/docx/corrupt", (_req, res) => send(res, 200, DOCX_TYPE, docxFixture("corrupt")));
addPage("/web/docx/encrypted", (_req, res) => send(res, 200, DOCX_TYPE, docxFixture("encrypted")));
addPage("/web/docx/zip", (_req, res) =>
  // A ZIP that is no Word document, served as one: the fixture's bytes with its main part renamed.
  send(
    res,
    200,
    DOCX_TYPE,
    Buffer.from(
      docxFixture("handbook").toString("latin1").replaceAll("word/document.xml", "word/document.xmX"),
      "latin1",
    ),
  ),
);

/** A page stating its metadata in JSON-LD (and differently in OpenGraph, which JSON-LD wins over). */
export const JSON_LD_PAGE = `<!doctype html><html lang="en-GB"><head><title>Tides | Coast Weekly</title>
<meta property="og:title" content="Tides explained (OpenGraph)"><meta property="og:site_name" content="Coast Weekly">
<script type="application/ld+json">{"@context":"https://schema.org","@graph":[
{"@type":"WebSite","name":"Coast Weekly (JSON-LD)"},
{"@type":"NewsArticle","headline":"How the tides work","datePublished":"2025-09-04T10:30:00+02:00",
"author":[{"@type":"Person","name":"Ada Brook"},{"@type":"Person","name":"Sam Reed"}],
"publisher":{"@type":"Organization","name":"Coast Media"}}]}</script></head>
<body><article><h1>How the tides work</h1><p>${"The moon pulls the oceans towards it, and the earth turns beneath the bulge. ".repeat(6)}</p></article></body></html>`;

/** A page stating its metadata only in OpenGraph, article: and plain meta tags. */
export const META_PAGE = `<!doctype html><html><head><title>Harbour lights</title>
<meta name="author" content="Jo Marsh"><meta property="article:published_time" content="2024-03-05">
<meta property="og:site_name" content="Harbour Times"><meta property="og:locale" content="pt_BR"></head>
<body><article><h1>Harbour lights</h1><p>${"Every harbour keeps a red light to port and a green light to starboard. ".repeat(6)}</p></article></body></html>`;

addPage("/web/meta/json-ld", (_req, res) => send(res, 200, "text/html; charset=utf-8", JSON_LD_PAGE));
addPage("/web/meta/tags", (_req, res) => send(res, 200, "text/html; charset=utf-8", META_PAGE));

const WCXB_DIR = new URL("../../../shared/data/wcxb-dev/html/", import.meta.url);
/** Pages of the WCXB development split, read from the shared data next to the repo (never copied in). */
addPage("/wcxb", (_req, res, url) => {
  const id = url.searchParams.get("id") ?? "";
  if (!/^\d{4}$/.test(id)) return send(res, 400, "text/plain", "bad id");
  res.writeHead(200, { "content-type": "text/html" });
  res.end(gunzipSync(readFileSync(new URL(`${id}.html.gz`, WCXB_DIR))));
});
/** A WCXB page's reviewed truth: its type, title and the snippets a correct extraction must (not) contain. */
let wcxbTruth: Record<string, Record<string, unknown>> | undefined;
addPage("/wcxb/truth", (_req, res, url) => {
  wcxbTruth ??= JSON.parse(readFileSync(new URL("../ground-truth.json", WCXB_DIR), "utf8"));
  const page = wcxbTruth?.[url.searchParams.get("id") ?? ""];
  if (!page) return send(res, 404, "text/plain", "no such page");
  const { page_type, title, url: pageUrl } = page;
  send(
    res,
    200,
    "application/json",
    JSON.stringify({ page_type, title, url: pageUrl, with: page.with, without: page.without }),
  );
});
