/** The widget's static DOM: launcher, panel, transcript area, tasks, question slot, composer. */
import { h } from "../ui/dom";
import type { WidgetConfig } from "./config";
import { WIDGET_CSS } from "./styles";

/** The elements the app drives. */
export interface WidgetLayout {
  root: HTMLElement;
  launcher: HTMLButtonElement;
  panel: HTMLElement;
  close: HTMLButtonElement;
  status: HTMLElement;
  log: HTMLElement;
  working: HTMLElement;
  tasks: HTMLElement;
  question: HTMLElement;
  composer: HTMLFormElement;
  input: HTMLTextAreaElement;
  send: HTMLButtonElement;
  stop: HTMLButtonElement;
  live: HTMLElement;
}

const SVG_NS = "http://www.w3.org/2000/svg";
const CHAT_PATH = "M4 4h16a2 2 0 0 1 2 2v10a2 2 0 0 1-2 2H9l-5 4v-4a2 2 0 0 1-2-2V6a2 2 0 0 1 2-2z";

/** A speech-bubble icon (no emoji font needed). */
function chatIcon(): SVGSVGElement {
  const svg = document.createElementNS(SVG_NS, "svg");
  svg.setAttribute("viewBox", "0 0 24 24");
  svg.setAttribute("aria-hidden", "true");
  const path = document.createElementNS(SVG_NS, "path");
  path.setAttribute("d", CHAT_PATH);
  svg.append(path);
  return svg;
}

/** Builds the widget into a shadow root. */
export function buildLayout(shadow: ShadowRoot, cfg: WidgetConfig): WidgetLayout {
  const style = h("style", {}, WIDGET_CSS);
  const launcher = h(
    "button",
    {
      type: "button",
      class: "launcher",
      "aria-label": cfg.strings.open,
      "aria-expanded": "false",
      "aria-controls": "cirrus-panel",
    },
    chatIcon(),
  );
  const parts = buildPanel(cfg);
  const root = h("div", { class: `cw ${cfg.position}` }, parts.panel, launcher);
  if (cfg.color) root.style.setProperty("--accent", cfg.color);
  if (cfg.textColor) root.style.setProperty("--on-accent", cfg.textColor);
  shadow.append(style, root);
  return { root, launcher, ...parts };
}

/** The chat panel (a dialog, hidden until opened) and the parts in it the app drives. */
function buildPanel(cfg: WidgetConfig): Omit<WidgetLayout, "root" | "launcher"> {
  const s = cfg.strings;
  const close = h("button", { type: "button", class: "close", "aria-label": s.close }, "×");
  const status = h("div", { class: "status", role: "status" });
  const log = h(
    "div",
    { class: "log", role: "log", "aria-label": cfg.title, tabindex: "0" },
    h("div", { class: "msg greeting" }, cfg.greeting),
  );
  const working = h("div", { class: "working", hidden: true }, s.working);
  const tasks = h("div", { class: "tasks" });
  const question = h("div", { class: "question-slot" });
  const input = h("textarea", {
    rows: "1",
    placeholder: s.placeholder,
    "aria-label": s.placeholder,
    maxlength: "20000",
  });
  const send = h("button", { type: "submit", class: "send" }, s.send);
  const stop = h("button", { type: "button", class: "stop", hidden: true }, s.stop);
  const composer = h("form", { class: "composer" }, input, stop, send);
  const live = h("div", { class: "sr-only", "aria-live": "polite", "aria-atomic": "true" });
  const panel = h(
    "section",
    {
      class: "panel",
      id: "cirrus-panel",
      role: "dialog",
      "aria-label": cfg.title,
      hidden: true,
      lang: cfg.lang,
    },
    h("header", {}, h("h2", {}, cfg.title), close),
    status,
    log,
    working,
    tasks,
    question,
    composer,
    live,
  );
  return { panel, close, status, log, working, tasks, question, composer, input, send, stop, live };
}
