import { extractMainContent } from "../durable-objects/engine/extract/extract";
const story = [
  "The harbour authority said on Friday that the north pier will close for repairs from next month, after an inspection found cracks in two of its supports.",
  "Ferries will use the south terminal while the work goes on, and the authority expects the pier to reopen in the spring.",
];
const rail = (n: number, label: string) => `<section class="rail"><h2>${label}</h2><ul>${Array.from({ length: n }, (_, i) => `<li><a href="/news/${label.length}-${i}">Council weighs new plan for the old market hall number ${i} as traders push back</a><p>By Jane Writer ${i}</p><time>May ${i + 1}, 2024</time></li>`).join("")}</ul></section>`;
const html = `<!doctype html><html><head><title>North pier to close for repairs</title><meta property="og:type" content="article"><script type="application/ld+json">{"@type":"NewsArticle","headline":"North pier"}</script></head><body>
<div class="page"><div class="menu"><a href="/a">News</a> <a href="/b">Sport</a> <a href="/c">Business</a> <a href="/d">Culture</a></div>
<div class="main"><h1>North pier to close for repairs</h1><div class="meta">By Sam Reporter · May 3, 2024</div>
<div class="body"><p>${story[0]}</p><p>${story[1]}</p></div>
${rail(12, "Top video")}${rail(10, "Don't miss")}</div></div></body></html>`;
const out = extractMainContent(html, "https://news.example/pier");
console.log(out.markdown);
import { parseHTML } from "linkedom";
import { railsOf } from "../durable-objects/engine/extract/link-rails";
const d = parseHTML(html).document as any;
console.log(railsOf(d.body).map((r: any) => r.tagName + "." + r.className));
