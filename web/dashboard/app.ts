/** The dashboard: sign in with a workspace key, then Conversations, Settings, Keys, Files, Jobs, Usage, MCP. */
import { clear, h } from "../ui/dom";
import { api, currentKey, setKey } from "./client";
import { conversationsPage } from "./conversation-list";
import { conversationPage } from "./conversations-page";
import { filesPage } from "./files-page";
import { jobsPage } from "./jobs-page";
import { keysPage } from "./keys-page";
import { mcpPage } from "./mcp-page";
import { settingsPage } from "./settings-page";
import { failureText, field, notice } from "./ui";
import { usagePage } from "./usage-page";

/** A page renders into `main` and may return a cleanup. */
type Page = (main: HTMLElement, arg: string) => Promise<(() => void) | undefined> | undefined;

const PAGES: { path: string; label: string; page: Page }[] = [
  { path: "conversations", label: "Conversations", page: conversationsPage },
  { path: "settings", label: "Settings", page: settingsPage },
  { path: "keys", label: "Keys", page: keysPage },
  { path: "files", label: "Files", page: filesPage },
  { path: "jobs", label: "Jobs", page: jobsPage },
  { path: "usage", label: "Usage", page: usagePage },
  { path: "mcp", label: "MCP", page: mcpPage },
];

const app = document.getElementById("app") as HTMLElement;
let cleanup: (() => void) | undefined;

function signIn(): void {
  const key = h("input", { type: "password", autocomplete: "off", placeholder: "sk_…" });
  const out = h("div");
  const form = h(
    "form",
    { class: "card" },
    h("h1", {}, "Sign in to Cirrus"),
    field("Workspace secret key", key, "Kept in this tab only (sessionStorage)."),
    h("p", {}, h("button", { type: "submit" }, "Sign in")),
    out,
  );
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    setKey(key.value.trim());
    try {
      await api("/v1/conversations?limit=1");
      location.hash = "#/conversations";
      route();
    } catch (err) {
      setKey(null);
      clear(out);
      out.append(notice(failureText(err), true));
    }
  });
  clear(app);
  app.append(h("main", {}, form));
  key.focus();
}

async function route(): Promise<void> {
  cleanup?.();
  cleanup = undefined;
  if (!currentKey()) return signIn();
  const [, path = "conversations", arg = ""] = location.hash.split("/");
  const current = PAGES.find((p) => p.path === path) ?? PAGES[0];
  const nav = h(
    "nav",
    { "aria-label": "Sections" },
    ...PAGES.map((p) =>
      h("a", { href: `#/${p.path}`, "aria-current": p === current ? "page" : undefined }, p.label),
    ),
  );
  const out = h("button", { type: "button" }, "Sign out");
  out.addEventListener("click", () => {
    setKey(null);
    route();
  });
  const main = h("main");
  clear(app);
  app.append(h("div", { class: "top" }, h("strong", {}, "Cirrus"), nav, out), main);
  try {
    const page = arg && current.path === "conversations" ? conversationPage : current.page;
    cleanup = (await page(main, decodeURIComponent(arg))) ?? undefined;
  } catch (err) {
    main.append(notice(failureText(err), true));
  }
}

window.addEventListener("hashchange", () => {
  route();
});
route();
