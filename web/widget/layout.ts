/** The widget's static DOM: launcher, panel, transcript area, tasks, question slot, composer. */
import { h } from "../shared/dom";
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

/** Builds the widget into a shadow root. */
export function buildLayout(shadow: ShadowRoot, cfg: WidgetConfig): WidgetLayout {
  const s = cfg.strings;
  const style = document.createElement("style");
  style.textContent = WIDGET_CSS;
  const launcher = h(
    "button",
    {
      type: "button",
      class: "launcher",
      "aria-label": s.open,
      "aria-expanded": "false",
      "aria-controls": "cirrus-panel",
    },
    "💬",
  );
  const close = h("button", { type: "button", class: "close", "aria-label": s.close }, "×");
  const status = h("div", { class: "status", role: "status" });
  const log = h("div", { class: "log", role: "log", "aria-label": cfg.title, tabindex: "0" });
  log.append(h("div", { class: "greeting md" }, cfg.greeting));
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
  const root = h("div", { class: `cw ${cfg.position}` }, panel, launcher);
  if (cfg.color) root.style.setProperty("--accent", cfg.color);
  if (cfg.textColor) root.style.setProperty("--on-accent", cfg.textColor);
  shadow.append(style, root);
  return {
    root,
    launcher,
    panel,
    close,
    status,
    log,
    working,
    tasks,
    question,
    composer,
    input,
    send,
    stop,
    live,
  };
}
