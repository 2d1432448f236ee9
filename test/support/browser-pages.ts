/** Pages for the browser tests, served by the local page server under /browser/. */
import type { IncomingMessage } from "node:http";
import { browserNavigationPages } from "./browser-navigation-pages.ts";
import { escapeHtml, html, readBody } from "./browser-page-kit.ts";
import type { PageHandler } from "./page-server";

/** Signed-in sessions of the login site: session id → user name. */
const sessions = new Map<string, string>();
const SESSION_COOKIE = "sid";

const sessionUser = (req: IncomingMessage): string | null => {
  const sid = /(?:^|;\s*)sid=([^;]+)/.exec(req.headers.cookie ?? "")?.[1];
  return sid ? (sessions.get(sid) ?? null) : null;
};

/** A list of `count` links named `name 1` … (a long menu). */
const linkList = (name: string, count: number) =>
  `<ul>${Array.from({ length: count }, (_, i) => `<li><a href="/hello?${name}=${i + 1}">${name} ${i + 1}</a></li>`).join("")}</ul>`;

/** Paragraphs of a story, numbered so a test can find each one. */
const storyParagraphs = (count: number) =>
  Array.from(
    { length: count },
    (_, i) =>
      `<p>Paragraph ${i + 1}: the harbour town woke to water in its streets after the night's storm, and neighbours carried sandbags to the doors of the old market hall.</p>`,
  ).join("");

/** Route table of the browser test pages. */
export const browserPages: [string, PageHandler][] = [
  [
    // A news story beside long menus, a sidebar, a footer and a cookie dialog (no <main>, no ids on the story).
    "/browser/story",
    (_req, res) =>
      html(
        res,
        `<title>Storm story</title><body><header><a href="/hello">Front page</a><nav aria-label="Sections">${linkList("Section", 60)}</nav></header>
        <div class="layout"><div class="story"><h1>Storm floods the harbour town</h1><p class="byline">By A. Reporter</p>
        <div class="story-text">${storyParagraphs(14)}<p>Read <a href="/hello?story=more">the council's statement</a> in full.</p>
        <p><input placeholder="Your comment"> <button>Post comment</button></p></div></div>
        <aside><h2>Most read</h2>${linkList("Popular", 40)}</aside></div>
        <footer>${linkList("Footer", 12)}</footer>
        <div role="dialog" aria-label="Cookies"><p>We use cookies.</p><button>Accept all</button></div></body>`,
      ),
  ],
  [
    // A dashboard: controls and figures, no prose, no <main>: read whole.
    "/browser/dashboard",
    (_req, res) =>
      html(
        res,
        `<title>Dashboard</title><body><nav>${linkList("Menu", 8)}</nav><form role="search"><input name="q" placeholder="Search orders"><button>Find</button></form>
        <table><tr><th>Order</th><th>Total</th></tr><tr><td>A-1</td><td>12.00</td></tr><tr><td>A-2</td><td>40.50</td></tr></table>
        <button onclick="this.textContent = 'Refreshed'">Refresh</button></body>`,
      ),
  ],
  [
    // Buttons without ids or names on a tall page: the reader stamps them. ?v=2 has them in another order.
    "/browser/stamps",
    (_req, res, url) => {
      const names = url.searchParams.get("v") === "2" ? ["Later", "Load more"] : ["Load more", "Later"];
      const buttons = names.map(
        (n) => `<div><button onclick="document.title = '${n} pressed'">${n}</button></div>`,
      );
      html(
        res,
        `<title>Stamps</title><body><main><h1>Feed</h1>${buttons.join("")}<div style="height:3000px"></div>
        <div><span>Field</span><input></div><div><input></div></main></body>`,
      );
    },
  ],
  [
    // One control of each annotation kind: a unique id, a naming attribute, a unique tag, an href, and
    // stamps (twin buttons, a field far down the page); each click leaves its name in the title.
    "/browser/controls",
    (_req, res) =>
      html(
        res,
        `<title>Controls</title><body><main><h1>Controls</h1>
        <button id="save" onclick="document.title = 'save'">Save</button>
        <input name="email" placeholder="Email">
        <button aria-label="Close panel" onclick="document.title = 'close'">x</button>
        <textarea placeholder="Notes"></textarea>
        <div><button onclick="document.title = 'twin 1'">Twin</button> <button onclick="document.title = 'twin 2'">Twin</button></div>
        <div style="height:3000px"></div>
        <p><input placeholder="Far field"> <a href="/hello?from=controls">Next page</a></p></main></body>`,
      ),
  ],
  [
    // A site with a login form whose session lives in an HttpOnly cookie (and a theme in local storage).
    "/browser/login",
    async (req, res) => {
      if (req.method === "POST") {
        const form = new URLSearchParams(await readBody(req));
        const user = form.get("user") ?? "";
        if (!user || form.get("pass") !== "correct horse") {
          html(res, `<title>Sign in failed</title><main><h1 id="status">Wrong password</h1></main>`);
          return;
        }
        const sid = crypto.randomUUID();
        sessions.set(sid, user);
        res.writeHead(303, {
          location: "/browser/account",
          "set-cookie": `${SESSION_COOKIE}=${sid}; Path=/; HttpOnly; SameSite=Lax; Max-Age=3600`,
        });
        res.end();
        return;
      }
      html(
        res,
        `<title>Shop sign in</title><body><h1>Sign in</h1><form method="post" action="/browser/login">
        <input id="user" name="user" placeholder="User"><input id="pass" name="pass" type="password">
        <button id="submit" type="submit">Sign in</button></form></body>`,
      );
    },
  ],
  [
    "/browser/account",
    (req, res) => {
      const user = sessionUser(req);
      html(
        res,
        `<title>Account</title><body><h1 id="status">${user ? `Signed in as ${escapeHtml(user)}` : "Not signed in"}</h1>
        <p id="theme"></p><script>
        if (${user ? "true" : "false"}) localStorage.setItem("theme", localStorage.getItem("theme") || "ocean");
        document.getElementById("theme").textContent = "theme: " + (localStorage.getItem("theme") || "none");
        document.title = ${JSON.stringify(user ? "Account of " : "Account")} + ${JSON.stringify(user ?? "")};
        </script></body>`,
      );
    },
  ],
  [
    // Records whether clicks and key presses are trusted (dispatched by the browser, not by script).
    "/browser/trusted",
    (_req, res) =>
      html(
        res,
        `<title>Trusted input</title><body style="margin:0">
        <button id="btn" style="position:absolute;left:100px;top:100px;width:200px;height:80px">Press</button>
        <input id="field" style="position:absolute;left:100px;top:250px;width:300px">
        <p id="clicks" style="position:absolute;left:100px;top:320px">clicks: none</p>
        <p id="keys" style="position:absolute;left:100px;top:360px">keys: none</p>
        <div style="height:4000px"></div><script>
        const log = [];
        document.getElementById("btn").addEventListener("click", (e) => {
          log.push(e.type + ":" + e.isTrusted);
          document.getElementById("clicks").textContent = "clicks: " + log.join(" ");
        });
        document.getElementById("btn").addEventListener("dblclick", (e) => {
          log.push("dblclick:" + e.isTrusted);
          document.getElementById("clicks").textContent = "clicks: " + log.join(" ");
        });
        document.getElementById("field").addEventListener("keydown", (e) => {
          document.getElementById("keys").textContent = "keys: trusted=" + e.isTrusted + " last=" + (e.key.length === 1 ? "char" : e.key);
        });
        </script></body>`,
      ),
  ],
  [
    // Repaints every animation frame, for the live view's frame-rate bound.
    "/browser/animated",
    (_req, res) =>
      html(
        res,
        `<title>Animated</title><body style="margin:0"><div id="box" style="width:100vw;height:100vh"></div><script>
        let n = 0; const box = document.getElementById("box");
        const tick = () => { n++; box.style.background = "hsl(" + (n * 7 % 360) + ",80%,50%)"; box.textContent = n; requestAnimationFrame(tick); };
        requestAnimationFrame(tick);
        </script></body>`,
      ),
  ],
  [
    "/browser/js-built",
    (_req, res) =>
      html(
        res,
        `<title>Built by JS</title><body><main id="app">Loading…</main><script>
        document.addEventListener("DOMContentLoaded", () => setTimeout(() => {
          document.getElementById("app").innerHTML =
            '<h1 id="headline">Fresh from JavaScript</h1><p>Three items:</p><ul><li>Alpha</li><li>Beta</li><li>Gamma</li></ul>' +
            '<a href="/hello">Say hello</a> <button class="go">Go</button>';
          document.title = "Built by JS (done)";
        }, 30));
      </script></body>`,
      ),
  ],
  ...browserNavigationPages,
];
