/**
 * widget.js: `<script src="https://<cirrus>/widget.js" data-key="pk_…" async></script>`.
 * Mounts the chat in a shadow root; every failure stays inside (the host page never breaks).
 */
import { WidgetApp } from "./app";
import { readConfig } from "./config";

const script = (document.currentScript ??
  document.querySelector('script[src*="widget.js"][data-key]')) as HTMLScriptElement | null;

function mount(): void {
  try {
    const cfg = readConfig(script);
    if (!cfg || document.querySelector("[data-cirrus-widget]")) return;
    const host = document.createElement("div");
    host.setAttribute("data-cirrus-widget", "");
    document.body.appendChild(host);
    new WidgetApp(host.attachShadow({ mode: "open" }), cfg).start();
  } catch {
    // Never let the widget break the page it is embedded in.
  }
}

if (document.body) mount();
else document.addEventListener("DOMContentLoaded", mount, { once: true });
