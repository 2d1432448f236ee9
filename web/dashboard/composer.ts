/**
 * The chat box of a conversation: Enter sends, Shift+Enter starts a new line; Stop cancels the
 * run. The answer arrives on the conversation's event stream, which the page already follows.
 */
import { h } from "../ui/dom";
import { api, authHeaders } from "./client";
import { failureText, notice } from "./ui";

/** The composer of one conversation. */
export class Composer {
  readonly el: HTMLElement;
  private readonly input: HTMLTextAreaElement;
  private readonly stop: HTMLButtonElement;
  private readonly out: HTMLElement;

  constructor(private readonly conversationId: string) {
    this.input = h("textarea", {
      rows: "2",
      placeholder: "Message the agent — Enter sends, Shift+Enter for a new line",
      "aria-label": "Message",
    });
    const send = h("button", { type: "submit" }, "Send");
    this.stop = h("button", { type: "button", class: "secondary", disabled: true }, "Stop");
    this.out = h("div");
    const form = h(
      "form",
      { class: "composer" },
      this.input,
      h("div", { class: "composer-actions" }, send, this.stop),
    );
    this.el = h("div", { class: "card" }, form, this.out);
    this.input.addEventListener("keydown", (e) => {
      if (e.key === "Enter" && !e.shiftKey && !e.isComposing) {
        e.preventDefault();
        form.requestSubmit();
      }
    });
    form.addEventListener("submit", (e) => {
      e.preventDefault();
      void this.send();
    });
    this.stop.addEventListener("click", () => void this.cancel());
  }

  /** Enables Stop while a run is going. */
  setRunning(running: boolean): void {
    this.stop.disabled = !running;
  }

  private async send(): Promise<void> {
    const content = this.input.value.trim();
    if (!content) return;
    this.out.replaceChildren();
    try {
      // The run streams on the conversation's event stream too; this request only starts it.
      const res = await fetch(`/v1/conversations/${encodeURIComponent(this.conversationId)}/messages`, {
        method: "POST",
        headers: { ...authHeaders(), "content-type": "application/json" },
        body: JSON.stringify({ content, stream: true, idempotency_key: crypto.randomUUID() }),
      });
      if (!res.ok) {
        const body = (await res.json().catch(() => null)) as { error?: { message?: string } } | null;
        throw new Error(body?.error?.message ?? `HTTP ${res.status}`);
      }
      await res.body?.cancel();
      this.input.value = "";
    } catch (err) {
      this.out.append(notice(err instanceof Error ? err.message : failureText(err), true));
    }
  }

  private async cancel(): Promise<void> {
    try {
      await api(`/v1/conversations/${encodeURIComponent(this.conversationId)}/cancel`, { method: "POST" });
    } catch (err) {
      this.out.replaceChildren(notice(failureText(err), true));
    }
  }
}
