/**
 * The conversation's browser tabs in the dashboard: title, URL and a screenshot of each tab
 * (`GET /v1/conversations/{id}/tabs/{tab}/screenshot`), refreshed while a run is going. When the
 * conversation is idle a screenshot is taken only on request, so opening an old conversation does
 * not start a browser.
 */
import type { BrowserTab } from "../../schemas/events";
import { clear, h } from "../ui/dom";
import { authHeaders } from "./client";

const REFRESH_MS = 3000;

/** A card listing the tabs, with live screenshots while the conversation runs. */
export class TabsView {
  readonly el = h("div", { class: "card tabs", hidden: true });
  private tabs: BrowserTab[] = [];
  private running = false;
  private timer: ReturnType<typeof setInterval> | null = null;
  private readonly urls = new Map<number, string>();

  constructor(private readonly conversationId: string) {}

  /** New tab list from the conversation's state. */
  setTabs(tabs: BrowserTab[] | undefined): void {
    const next = tabs ?? [];
    if (JSON.stringify(next) === JSON.stringify(this.tabs)) return;
    this.tabs = next;
    this.render();
    if (this.running) this.refreshAll();
  }

  /** Whether a run is going: screenshots refresh only then. */
  setRunning(running: boolean): void {
    if (running === this.running) return;
    this.running = running;
    if (running && !this.timer) {
      this.refreshAll();
      this.timer = setInterval(() => this.refreshAll(), REFRESH_MS);
    }
    if (!running && this.timer) {
      clearInterval(this.timer);
      this.timer = null;
      this.refreshAll();
    }
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    for (const url of this.urls.values()) URL.revokeObjectURL(url);
    this.urls.clear();
  }

  private render(): void {
    clear(this.el);
    this.el.hidden = this.tabs.length === 0;
    this.el.append(h("strong", {}, "Browser tabs"));
    for (const tab of this.tabs) {
      const img = h("img", { alt: `Screenshot of tab ${tab.id}`, "data-tab": String(tab.id) });
      const url = this.urls.get(tab.id);
      if (url) img.src = url;
      const refresh = h("button", { type: "button", class: "secondary" }, "Screenshot");
      refresh.addEventListener("click", () => this.refresh(tab.id));
      this.el.append(
        h(
          "figure",
          { class: "tab", "data-tab-id": String(tab.id) },
          img,
          h(
            "figcaption",
            {},
            h("strong", {}, `#${tab.id}${tab.active ? " (active)" : ""} `),
            tab.title || "(untitled)",
            h("div", { class: "muted" }, tab.url),
            refresh,
          ),
        ),
      );
    }
  }

  private refreshAll(): void {
    for (const tab of this.tabs) void this.refresh(tab.id);
  }

  private async refresh(tabId: number): Promise<void> {
    const res = await fetch(
      `/v1/conversations/${encodeURIComponent(this.conversationId)}/tabs/${tabId}/screenshot`,
      { headers: authHeaders(), cache: "no-store" },
    ).catch(() => null);
    if (!res?.ok || !res.headers.get("content-type")?.startsWith("image/png")) return;
    const url = URL.createObjectURL(await res.blob());
    const old = this.urls.get(tabId);
    this.urls.set(tabId, url);
    if (old) URL.revokeObjectURL(old);
    const img = this.el.querySelector<HTMLImageElement>(`img[data-tab="${tabId}"]`);
    if (img) img.src = url;
  }
}
