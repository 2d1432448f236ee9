/**
 * widget.js: `<script src="https://<cirrus>/widget.js" data-key="pk_…" async></script>`.
 * Mounts the chat in a shadow root; every failure stays inside (the host page never breaks).
 */
import { WidgetApp } from "./app";
import { fetchServerSettings, readConfig, withServerSettings } from "./config";

const script = (document.currentScript ??
  document.querySelector('script[src*="widget.js"][data-key]')) as HTMLScriptElement | null;

async function mount(): Promise<void> {
  try {
    const own = readConfig(script);
    if (!own || document.querySelector("[data-cirrus-widget]")) return;
    const cfg = withServerSettings(own, await fetchServerSettings(own));
    if (document.querySelector("[data-cirrus-widget]")) return;
    const host = document.createElement("div");
    host.setAttribute("data-cirrus-widget", "");
    document.body.appendChild(host);
    new WidgetApp(host.attachShadow({ mode: "open" }), cfg).start();
  } catch {
    // Never let the widget break the page it is embedded in.
  }
}

const start = () => void mount().catch(() => {});
if (document.body) start();
else document.addEventListener("DOMContentLoaded", start, { once: true });
