/**
 * A tab's live view a person can drive: frames from `GET …/tabs/{tab}/live` drawn into an image,
 * and clicks, typing, keys and wheel scrolling sent to `POST …/tabs/{tab}/input` in the frame's
 * pixels. Used by the dashboard and the widget. Nothing typed is kept or logged here.
 */
import { h } from "./dom";
import { readSseStream } from "./sse";

/** Where the live view talks to. */
export interface LiveViewOptions {
  /** `…/v1/conversations/{id}/tabs/{tab}` of the tab. */
  tabUrl: string;
  headers: () => Record<string, string>;
  label: string;
}

/** Keys sent as key presses; everything printable is sent as text. */
const NAMED_KEYS = new Set([
  "Enter",
  "Tab",
  "Backspace",
  "Delete",
  "Escape",
  "ArrowUp",
  "ArrowDown",
  "ArrowLeft",
  "ArrowRight",
  "Home",
  "End",
  "PageUp",
  "PageDown",
]);

/** One tab's live view. */
export class LiveView {
  readonly el: HTMLElement;
  private readonly img: HTMLImageElement;
  private readonly abort = new AbortController();
  private size = { width: 0, height: 0 };

  constructor(private readonly opts: LiveViewOptions) {
    this.img = h("img", { alt: opts.label, draggable: "false", class: "live-frame" });
    this.el = h(
      "div",
      { class: "live-view", tabindex: "0", role: "application", "aria-label": opts.label },
      this.img,
    );
    this.img.addEventListener("click", (e) => this.mouse("click", e));
    this.img.addEventListener("dblclick", (e) => this.mouse("dblclick", e));
    this.img.addEventListener(
      "wheel",
      (e) => {
        e.preventDefault();
        const p = this.point(e);
        void this.send({
          type: "scroll",
          ...p,
          delta_x: Math.round(e.deltaX),
          delta_y: Math.round(e.deltaY),
        });
      },
      { passive: false },
    );
    this.el.addEventListener("keydown", (e) => this.key(e));
    this.el.addEventListener("paste", (e) => {
      const text = e.clipboardData?.getData("text");
      if (text) void this.send({ type: "type", text });
      e.preventDefault();
    });
  }

  /** Connects to the frames; stops on {@link stop}. */
  start(): void {
    void this.run();
  }

  stop(): void {
    this.abort.abort();
  }

  private async run(): Promise<void> {
    const res = await fetch(`${this.opts.tabUrl}/live`, {
      headers: this.opts.headers(),
      signal: this.abort.signal,
      cache: "no-store",
    }).catch(() => null);
    if (!res?.ok || !res.body) return;
    await readSseStream(res.body, (m) => {
      const frame = JSON.parse(m.data) as { data: string; width: number; height: number };
      this.size = { width: frame.width, height: frame.height };
      this.img.src = `data:image/jpeg;base64,${frame.data}`;
      this.el.dataset.frames = String(Number(this.el.dataset.frames ?? "0") + 1);
    }).catch(() => {});
  }

  /** A pointer position in the frame's pixels. */
  private point(e: MouseEvent): { x: number; y: number } {
    const box = this.img.getBoundingClientRect();
    const sx = this.size.width / (box.width || 1);
    const sy = this.size.height / (box.height || 1);
    const x = Math.min(this.size.width - 1, Math.max(0, Math.round((e.clientX - box.left) * sx)));
    const y = Math.min(this.size.height - 1, Math.max(0, Math.round((e.clientY - box.top) * sy)));
    return { x, y };
  }

  private mouse(type: "click" | "dblclick", e: MouseEvent): void {
    if (!this.size.width) return;
    e.preventDefault();
    this.el.focus();
    void this.send({ type, ...this.point(e) });
  }

  private key(e: KeyboardEvent): void {
    if (e.isComposing) return;
    if (e.key.length === 1 && !e.ctrlKey && !e.metaKey && !e.altKey) {
      e.preventDefault();
      void this.send({ type: "type", text: e.key });
    } else if (NAMED_KEYS.has(e.key)) {
      e.preventDefault();
      void this.send({ type: "key", key: e.key });
    } else if (e.ctrlKey && e.key.length === 1) {
      e.preventDefault();
      void this.send({ type: "key", key: `Control+${e.key.toUpperCase()}` });
    }
  }

  /** Input is sent one event at a time, in order. */
  private queue: Promise<unknown> = Promise.resolve();

  private send(body: Record<string, unknown>): Promise<unknown> {
    this.queue = this.queue.then(() =>
      fetch(`${this.opts.tabUrl}/input`, {
        method: "POST",
        headers: { ...this.opts.headers(), "content-type": "application/json" },
        body: JSON.stringify(body),
      }).catch(() => null),
    );
    return this.queue;
  }
}
