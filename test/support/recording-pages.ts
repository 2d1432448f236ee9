/** Pages for the recording tests and the recording bench, served by the local page server. */
import type { ServerResponse } from "node:http";
import type { PageHandler } from "./page-server";

const html = (res: ServerResponse, body: string) => {
  res.writeHead(200, { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" });
  res.end(`<!doctype html>${body}`);
};

const num = (url: URL, name: string, fallback: number, max: number) =>
  Math.min(max, Math.max(0, Number(url.searchParams.get(name) ?? fallback) || 0));

/** Route table of the recording pages. */
export const recordingPages: [string, PageHandler][] = [
  [
    // Adds `blocks` paragraphs of `kb` KiB of text, one every `ms` ms: a recording that grows
    // past a size limit in many batches. The page's text says when it is done.
    "/recording/growing",
    (_req, res, url) => {
      const blocks = num(url, "blocks", 80, 1000);
      const kb = num(url, "kb", 20, 512);
      const ms = num(url, "ms", 25, 5000);
      html(
        res,
        `<title>Growing</title><body><h1>Growing page</h1><p id="state">growing</p><div id="blocks"></div><script>
        let n = 0;
        const filler = "lorem ipsum dolor sit amet ".repeat(Math.ceil(${kb} * 1024 / 27)).slice(0, ${kb} * 1024);
        const timer = setInterval(() => {
          n += 1;
          const p = document.createElement("p");
          p.textContent = "block " + n + " " + filler;
          document.getElementById("blocks").append(p);
          if (n >= ${blocks}) { clearInterval(timer); document.getElementById("state").textContent = "grown"; }
        }, ${ms});
        </script></body>`,
      );
    },
  ],
  [
    // An ordinary page of a site: a heading, prose, a list, a form and a link to the next page
    // (the bench browses ?n=1, 2, …). A counter ticks `ticks` times, 100 ms apart.
    "/recording/site",
    (_req, res, url) => {
      const n = num(url, "n", 1, 100000);
      const ticks = num(url, "ticks", 0, 10000);
      const items = Array.from(
        { length: 30 },
        (_, i) => `<li><a href="?n=${i + 1}">Item ${n}.${i + 1}</a> costs ${(i * 3.5 + n).toFixed(2)}</li>`,
      ).join("");
      const prose = Array.from(
        { length: 8 },
        (_, i) =>
          `<p>Section ${i + 1} of page ${n}: the shop lists its goods, their prices and what other buyers said about them.</p>`,
      ).join("");
      html(
        res,
        `<title>Site page ${n}</title><body><header><nav><a id="next" href="?n=${n + 1}&ticks=${ticks}">Next page</a></nav></header>
        <main><h1>Page ${n} of the site</h1>${prose}<ul>${items}</ul>
        <form><input name="q" placeholder="Search"><button type="button" id="go" onclick="document.getElementById('said').textContent='Searched'">Search</button></form>
        <p id="said">Not searched</p><p id="tick">tick 0</p></main><script>
        let t = 0;
        const timer = setInterval(() => {
          t += 1;
          document.getElementById("tick").textContent = "tick " + t;
          if (t >= ${ticks}) clearInterval(timer);
        }, 100);
        if (${ticks} === 0) clearInterval(timer);
        </script></body>`,
      );
    },
  ],
];
