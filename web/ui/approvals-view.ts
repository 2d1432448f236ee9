/**
 * Pending tool approvals (from the conversation's state): the tool, its arguments (secret values
 * already redacted by the server) and Approve / Deny buttons. Shared by widget and dashboard; the
 * widget has no buttons (the site's owner decides) and says it waits for them.
 */
import type { PendingApproval } from "../../schemas/approvals";
import { clear, h } from "./dom";
import { asText } from "./event-types";

/** Longest argument text shown before it is cut. */
const MAX_ARGS_CHARS = 4000;

/** UI text for approvals. */
export interface ApprovalStrings {
  approvalNeeded: string;
  approve: string;
  deny: string;
  approvalFailed: string;
  /** Shown instead of the buttons where the viewer cannot decide (a widget visitor). */
  approvalWaiting?: string;
}

/** Sends a person's decision on one approval. */
export type DecideApproval = (approvalId: string, decision: "approve" | "deny") => Promise<void>;

/** The list of pending approvals, kept in step with the state. */
export class ApprovalsView {
  readonly el: HTMLElement = h("div", { class: "approvals" });
  private readonly cards = new Map<string, HTMLElement>();

  constructor(
    private readonly strings: ApprovalStrings,
    /** Null: this viewer only watches (a widget visitor; the owner decides). */
    private readonly decide: DecideApproval | null,
  ) {}

  /** Shows exactly these approvals (new ones added, decided ones removed). */
  render(list: PendingApproval[]): void {
    const ids = new Set(list.map((a) => a.approval_id));
    for (const [id, card] of this.cards) {
      if (ids.has(id)) continue;
      card.remove();
      this.cards.delete(id);
    }
    for (const a of list) if (!this.cards.has(a.approval_id)) this.add(a);
    if (list.length === 0) clear(this.el);
  }

  /** How many approvals are on screen. */
  get size(): number {
    return this.cards.size;
  }

  private add(a: PendingApproval): void {
    const error = h("div", { class: "approval-error", role: "alert" });
    const approve = h("button", { type: "button", class: "approval-approve" }, this.strings.approve);
    const deny = h("button", { type: "button", class: "approval-deny" }, this.strings.deny);
    const args = asText(a.arguments);
    const card = h(
      "div",
      { class: "approval", "data-approval-id": a.approval_id, role: "group", "aria-label": a.tool_name },
      h("p", { class: "approval-title" }, `${this.strings.approvalNeeded} `, h("code", {}, a.tool_name)),
      h(
        "pre",
        { class: "approval-args" },
        args.length > MAX_ARGS_CHARS ? `${args.slice(0, MAX_ARGS_CHARS)}…` : args,
      ),
      a.reason ? h("p", { class: "approval-reason" }, a.reason) : null,
      this.decide
        ? h("div", { class: "approval-actions" }, approve, deny)
        : h("p", { class: "approval-waiting" }, this.strings.approvalWaiting ?? ""),
      error,
    );
    const send = async (decision: "approve" | "deny") => {
      approve.disabled = deny.disabled = true;
      error.textContent = "";
      try {
        await this.decide?.(a.approval_id, decision);
      } catch {
        error.textContent = this.strings.approvalFailed;
        approve.disabled = deny.disabled = false;
      }
    };
    approve.addEventListener("click", () => void send("approve"));
    deny.addEventListener("click", () => void send("deny"));
    this.cards.set(a.approval_id, card);
    this.el.append(card);
  }
}
