/** The widget's behaviour: session, event stream, transcript, composer, questions, files. */
import type { CirrusEvent } from "../../schemas/events";
import { ApprovalsView } from "../ui/approvals-view";
import { clear, h } from "../ui/dom";
import { EventStream, type StreamStatus } from "../ui/event-stream";
import type { AskUserValue, ConversationState } from "../ui/event-types";
import { TakeoverSlot } from "../ui/takeover-panel";
import { Transcript } from "../ui/transcript";
import { WidgetApi, WidgetApiError } from "./api";
import type { WidgetConfig } from "./config";
import { buildLayout, type WidgetLayout } from "./layout";
import { QuestionView } from "./question-view";

/** One mounted widget. */
export class WidgetApp {
  private readonly ui: WidgetLayout;
  private readonly api: WidgetApi;
  private readonly transcript: Transcript;
  private stream: EventStream | null = null;
  private question: QuestionView | null = null;
  private readonly approvals: ApprovalsView;
  /** The visitor's own conversation's take-over: its live view and Done. */
  private readonly takeover: TakeoverSlot;
  private readonly pending: HTMLElement[] = [];
  /** Events up to this seq were already seen before the page (re)loaded: no announcements. */
  private historyUntil = 0;

  constructor(
    shadow: ShadowRoot,
    private readonly cfg: WidgetConfig,
  ) {
    this.ui = buildLayout(shadow, cfg);
    this.api = new WidgetApi(cfg);
    this.transcript = new Transcript({
      strings: cfg.strings,
      verbose: false,
      onRun: (running) => this.setRunning(running),
      onState: (state) => {
        this.renderTasks(state);
        this.renderApprovals(state);
        this.takeover.render(state.pending_takeover);
      },
      onQuestion: (q) => this.showQuestion(q),
      onQuestionResolved: (id) => this.resolveQuestion(id),
      onAnnounce: (text) => this.announce(text),
      onUserMessage: (text) => this.dropPending(text),
      fileLink: (path) => this.fileLink(path),
    });
    this.ui.log.append(this.transcript.el);
    // The site's owner decides a visitor's approvals (the server refuses a visitor's decision).
    this.approvals = new ApprovalsView(cfg.strings, null);
    this.ui.question.before(this.approvals.el);
    this.takeover = new TakeoverSlot(
      () => this.api.conversationUrl(),
      () => this.api.headers(),
      { title: cfg.strings.takeoverTitle, done: cfg.strings.takeoverDone },
    );
    this.ui.question.before(this.takeover.el);
  }

  /** Wires events and resumes a stored conversation. */
  start(): void {
    const { launcher, close, composer, input, stop, panel } = this.ui;
    launcher.addEventListener("click", () => this.toggle(panel.hidden));
    close.addEventListener("click", () => this.toggle(false));
    panel.addEventListener("keydown", (e) => {
      if (e.key === "Escape") this.toggle(false);
    });
    composer.addEventListener("submit", (e) => {
      e.preventDefault();
      this.submit().catch(() => {});
    });
    input.addEventListener("keydown", (e) => {
      if (e.key === "Enter" && !e.shiftKey && !e.isComposing) {
        e.preventDefault();
        this.submit().catch(() => {});
      }
    });
    stop.addEventListener("click", () => this.api.cancel().catch(() => {}));
    const session = this.api.session;
    if (session) {
      this.historyUntil = session.last_seq;
      this.openStream();
    }
    if (this.cfg.startOpen || session?.open) this.toggle(true, false);
  }

  private toggle(open: boolean, focus = true): void {
    this.ui.panel.hidden = !open;
    this.ui.launcher.setAttribute("aria-expanded", String(open));
    this.ui.launcher.setAttribute("aria-label", open ? this.cfg.strings.close : this.cfg.strings.open);
    this.api.remember({ open });
    if (!focus) return;
    if (open) this.question ? this.question.focus() : this.ui.input.focus();
    else this.ui.launcher.focus();
  }

  private openStream(): void {
    this.stream?.stop();
    this.stream = new EventStream({
      url: `${this.api.conversationUrl()}/events`,
      headers: () => this.api.headers(),
      after: 0,
      onEvent: (seq, event) => this.onEvent(seq, event),
      onStatus: (s) => this.setStatus(s),
      onFatal: () => {
        this.api.forget();
        this.setStatus("offline");
      },
    });
    this.stream.start();
  }

  private onEvent(seq: number, event: CirrusEvent): void {
    const history = seq <= this.historyUntil;
    const atBottom = this.ui.log.scrollHeight - this.ui.log.scrollTop - this.ui.log.clientHeight < 40;
    this.transcript.apply(event, history);
    this.api.remember({ last_seq: seq });
    if (atBottom) this.ui.log.scrollTop = this.ui.log.scrollHeight;
  }

  private async submit(): Promise<void> {
    const text = this.ui.input.value.trim();
    if (!text) return;
    this.ui.send.disabled = true;
    const bubble = h("div", { class: "msg pending" }, text);
    try {
      const fresh = !this.api.session;
      await this.api.ensureSession();
      if (fresh) this.openStream();
      this.transcript.add(bubble);
      this.pending.push(bubble);
      this.ui.input.value = "";
      this.ui.log.scrollTop = this.ui.log.scrollHeight;
      await this.api.send(text);
      this.setStatus("live");
    } catch (err) {
      bubble.remove();
      this.ui.input.value = text;
      this.showSendError(err);
    } finally {
      this.ui.send.disabled = false;
    }
  }

  private showSendError(err: unknown): void {
    const s = this.cfg.strings;
    if (err instanceof WidgetApiError) {
      this.ui.status.textContent = err.status === 429 ? s.rateLimited : s.sendFailed;
      if (err.status === 401 || err.status === 403 || err.status === 404) this.api.forget();
    } else this.setStatus("offline");
  }

  private dropPending(text: string): void {
    const i = this.pending.findIndex((b) => b.textContent === text.trim());
    if (i >= 0) this.pending.splice(i, 1)[0].remove();
  }

  private setStatus(status: StreamStatus | "offline"): void {
    const s = this.cfg.strings;
    this.ui.status.textContent =
      status === "offline" ? s.offline : status === "reconnecting" ? s.reconnecting : "";
  }

  private setRunning(running: boolean): void {
    this.ui.working.hidden = !running;
    this.ui.stop.hidden = !running;
    if (running) this.announce(this.cfg.strings.working);
  }

  /** The visitor's own conversation's pending approvals, waiting for the site's owner. */
  private renderApprovals(state: ConversationState): void {
    const before = this.approvals.size;
    this.approvals.render(state.pending_approvals ?? []);
    if (this.approvals.size > before) this.announce(this.cfg.strings.approvalNeeded);
  }

  private renderTasks(state: ConversationState): void {
    clear(this.ui.tasks);
    if (!state.tasks.length) return;
    const items = state.tasks.map((t) => h("li", { "data-status": t.status }, t.subject));
    this.ui.tasks.append(h("h3", {}, this.cfg.strings.tasks), h("ul", {}, ...items));
  }

  private showQuestion(q: AskUserValue): void {
    if (!q?.question_id || typeof q.question !== "string") return;
    this.question?.destroy();
    this.question = new QuestionView(q, this.cfg.strings, (answer) => this.api.answer(q.question_id, answer));
    this.ui.question.append(this.question.el);
    this.announce(q.question);
    if (!this.ui.panel.hidden && q.expires_at > Date.now()) this.question.focus();
  }

  private resolveQuestion(id: string): void {
    if (this.question && (!id || this.question.question.question_id === id)) {
      this.question.destroy();
      this.question = null;
    }
  }

  private fileLink(path: string): HTMLElement {
    const name = path.split("/").pop() || path;
    const button = h("button", { type: "button" }, `${this.cfg.strings.download} ${name}`);
    const row = h("div", { class: "row file" }, button);
    button.addEventListener("click", () => {
      this.api
        .file(path)
        .then((blob) => {
          const url = URL.createObjectURL(blob);
          const a = h("a", { href: url, download: name });
          row.append(a);
          a.click();
          a.remove();
          setTimeout(() => URL.revokeObjectURL(url), 10_000);
        })
        .catch(() => {
          this.ui.status.textContent = this.cfg.strings.fileUnavailable;
        });
    });
    return row;
  }

  private announce(text: string): void {
    this.ui.live.textContent = text.slice(0, 1000);
  }
}
