/**
 * Browser test pages for forms, page state (cookies and local storage), redirects and outside
 * links, slow and late loads, a page that reports its arrival, key presses and audio; served by the
 * local page server under /browser/ (part of `browserPages`, see browser-pages.ts).
 */
import { escapeHtml, html, readBody } from "./browser-page-kit.ts";
import type { PageHandler } from "./page-server";

/** Arrivals at /browser/arrived by id: once the page has loaded, and who waits for that. */
const arrivals = new Set<string>();
const arrivalWaiters = new Map<string, (() => void)[]>();

const recordArrival = (id: string) => {
  arrivals.add(id);
  for (const wake of arrivalWaiters.get(id) ?? []) wake();
  arrivalWaiters.delete(id);
};

/** Route table of the browser pages for forms, state, navigation and loading. */
export const browserNavigationPages: [string, PageHandler][] = [
  [
    "/browser/form",
    (_req, res) =>
      html(
        res,
        `<title>Sign in</title><body><header><nav><a href="/hello">Home</a></nav></header>
        <main><h1>Sign in</h1><form id="login" method="post" action="/browser/form-result">
        <label for="user">User name</label><input id="user" name="user">
        <label>Password <input type="password" name="pass"></label>
        <textarea name="note" placeholder="A note"></textarea>
        <select name="plan"><option>free</option><option selected>pro</option></select>
        <input type="checkbox" name="remember" checked> Remember me
        <button type="submit">Sign in</button></form></main></body>`,
      ),
  ],
  [
    "/browser/form-result",
    async (req, res) => {
      const form = new URLSearchParams(await readBody(req));
      html(
        res,
        `<title>Signed in</title><main><h1>Welcome ${escapeHtml(form.get("user") ?? "")}</h1>
        <p id="echo">Password was: ${escapeHtml(form.get("pass") ?? "")}</p>
        <p id="note">Note: ${escapeHtml(form.get("note") ?? "")}</p></main>`,
      );
    },
  ],
  [
    "/browser/globals",
    (_req, res) =>
      html(
        res,
        `<title>Globals</title><body><div id="box">Shared DOM</div><script>
        window.pageSecret = 42; function pageAdd(a, b) { return a + b; }</script></body>`,
      ),
  ],
  [
    "/browser/set-state",
    (_req, res) =>
      html(
        res,
        `<title>State set</title><body><p>set</p><script>localStorage.setItem("theme", "dark");</script></body>`,
        { "set-cookie": "session=abc123; Path=/; Max-Age=3600" },
      ),
  ],
  [
    "/browser/show-state",
    (req, res) =>
      html(
        res,
        `<title>State</title><body><p id="server">cookie header: ${escapeHtml(req.headers.cookie ?? "none")}</p>
        <p id="local"></p><script>document.getElementById("local").textContent =
        "theme: " + (localStorage.getItem("theme") || "none");</script></body>`,
      ),
  ],
  [
    "/browser/redirect",
    (_req, res, url) => {
      res.writeHead(302, { location: url.searchParams.get("to") ?? "/hello" });
      res.end();
    },
  ],
  [
    "/browser/outside",
    (_req, res, url) =>
      html(
        res,
        `<title>Outside link</title><body><a id="out" href="${escapeHtml(url.searchParams.get("to") ?? "/hello")}">Leave</a></body>`,
      ),
  ],
  [
    "/browser/slow-image",
    (_req, res) => {
      setTimeout(() => {
        res.writeHead(200, { "content-type": "image/gif" });
        res.end(Buffer.from("R0lGODlhAQABAAAAACH5BAEKAAEALAAAAAABAAEAAAICTAEAOw==", "base64"));
      }, 3_000);
    },
  ],
  [
    "/browser/slow",
    (_req, res) =>
      html(
        res,
        `<title>Slow</title><body><p>text</p><img src="/browser/slow-image" alt="slow"><script>
        addEventListener("load", () => document.body.insertAdjacentHTML("beforeend", '<p id="done">loaded</p>'));
        </script></body>`,
      ),
  ],
  [
    // A page that reports its own load: GET /browser/arrival?id=… answers once it has (long poll).
    "/browser/arrived",
    (_req, res, url) =>
      html(
        res,
        `<title>Arrived</title><body><p>here</p><script>addEventListener("load", () =>
        fetch("/browser/arrival?loaded=1&id=" + ${JSON.stringify(url.searchParams.get("id") ?? "")}));</script></body>`,
      ),
  ],
  [
    "/browser/arrival",
    (_req, res, url) => {
      const id = url.searchParams.get("id") ?? "";
      const answer = () => {
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify({ arrived: id }));
      };
      if (url.searchParams.get("loaded")) recordArrival(id);
      if (arrivals.has(id)) return answer();
      arrivalWaiters.set(id, [...(arrivalWaiters.get(id) ?? []), answer]);
    },
  ],
  [
    "/browser/delayed",
    (_req, res) =>
      html(
        res,
        `<title>Delayed</title><body><p>wait</p><script>setTimeout(() => {
        const b = document.createElement("button"); b.id = "late"; b.textContent = "Late";
        b.onclick = () => { location.href = "/hello"; };
        document.body.append(b); }, 600);</script></body>`,
      ),
  ],
  [
    "/browser/long",
    (_req, res) =>
      html(
        res,
        `<title>Long</title><body style="margin:0"><h1>Top</h1><div style="height:5000px;width:4000px"></div>
        <h2 id="bottom">Bottom</h2></body>`,
      ),
  ],
  [
    "/browser/keys",
    (_req, res) =>
      html(
        res,
        `<title>Keys</title><body><input id="field"><p id="log"></p><script>
        document.getElementById("field").addEventListener("keydown", (e) => {
          document.getElementById("log").textContent += (e.ctrlKey ? "Ctrl+" : "") + e.key + " ";
        });</script></body>`,
      ),
  ],
  [
    "/browser/audio",
    (_req, res) =>
      html(
        res,
        `<title>Audio</title><body><button id="play">Play</button><audio id="a" loop></audio><script>
        const rate = 8000, n = rate * 2, buf = new ArrayBuffer(44 + n * 2), v = new DataView(buf);
        const w = (o, s) => { for (let i = 0; i < s.length; i++) v.setUint8(o + i, s.charCodeAt(i)); };
        w(0, "RIFF"); v.setUint32(4, 36 + n * 2, true); w(8, "WAVEfmt "); v.setUint32(16, 16, true);
        v.setUint16(20, 1, true); v.setUint16(22, 1, true); v.setUint32(24, rate, true);
        v.setUint32(28, rate * 2, true); v.setUint16(32, 2, true); v.setUint16(34, 16, true);
        w(36, "data"); v.setUint32(40, n * 2, true);
        for (let i = 0; i < n; i++) v.setInt16(44 + i * 2, Math.sin(i / 4) * 8000, true);
        const a = document.getElementById("a"); a.src = URL.createObjectURL(new Blob([buf], { type: "audio/wav" }));
        document.getElementById("play").onclick = () => a.play();</script></body>`,
      ),
  ],
];
