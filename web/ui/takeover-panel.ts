/**
 * A pending take-over as the person sees it: the agent's reason, the tab's live view to drive,
 * and a Done button that hands the browser back (`POST …/takeover/{id}/done`).
 */
import type { PendingTakeover } from "../../schemas/events";
import { h } from "./dom";
import { LiveView } from "./live-view";

/** Texts of the panel. */
export interface TakeoverStrings {
  title: string;
  done: string;
}

/** The panel of one take-over; `stop()` closes its live view. */
export class TakeoverPanel {
  readonly el: HTMLElement;
  readonly takeoverId: string;
  private readonly live: LiveView;

  constructor(
    conversationUrl: string,
    headers: () => Record<string, string>,
    takeover: PendingTakeover,
    strings: TakeoverStrings,
  ) {
    this.takeoverId = takeover.takeover_id;
    this.live = new LiveView({
      tabUrl: `${conversationUrl}/tabs/${takeover.tab_id}`,
      headers,
      label: `${strings.title}: tab ${takeover.tab_id}`,
    });
    const done = h("button", { type: "button", class: "takeover-done" }, strings.done);
    done.addEventListener("click", () => {
      done.disabled = true;
      void fetch(`${conversationUrl}/takeover/${encodeURIComponent(takeover.takeover_id)}/done`, {
        method: "POST",
        headers: { ...headers(), "content-type": "application/json" },
        body: "{}",
      }).finally(() => {
        done.disabled = false;
      });
    });
    this.el = h(
      "div",
      { class: "takeover", "data-takeover-id": takeover.takeover_id },
      h("strong", {}, `${strings.title}: `),
      takeover.reason,
      this.live.el,
      done,
    );
    this.live.start();
  }

  stop(): void {
    this.live.stop();
    this.el.remove();
  }
}

/** Where a conversation's pending take-over is shown: opened when one is asked, closed when it ends. */
export class TakeoverSlot {
  readonly el: HTMLElement;
  private panel: TakeoverPanel | null = null;

  constructor(
    private readonly conversationUrl: () => string,
    private readonly headers: () => Record<string, string>,
    private readonly strings: TakeoverStrings,
    className = "takeover-slot",
  ) {
    this.el = h("div", { class: className, hidden: true });
  }

  /** Shows the pending take-over of the state (or nothing). */
  render(takeover: PendingTakeover | null | undefined): void {
    if (takeover && this.panel?.takeoverId === takeover.takeover_id) return;
    this.panel?.stop();
    this.panel = null;
    this.el.hidden = !takeover;
    if (!takeover) return;
    this.panel = new TakeoverPanel(this.conversationUrl(), this.headers, takeover, this.strings);
    this.el.append(this.panel.el);
  }

  stop(): void {
    this.render(null);
  }
}
