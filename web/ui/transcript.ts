/**
 * Renders a conversation's events as a transcript: messages (Markdown, streamed), tool steps
 * with status, sub-agent activity, questions, notices and errors. Shared by widget and dashboard.
 */
import type { CirrusEvent } from "../../schemas/events";
import { clear, h } from "./dom";
import {
  type AskUserValue,
  applyStateDelta,
  asText,
  type ConversationState,
  type EventHandlers,
  type EventsByType,
  resultFiles,
} from "./event-types";
import { renderMarkdown } from "./markdown";
import { ToolSteps, type ToolStrings } from "./tool-steps";

/** UI text the transcript needs. */
export interface TranscriptStrings extends ToolStrings {
  you: string;
  assistant: string;
  subAgent: string;
  error: string;
}

/** What the embedding UI wants to know about. */
export interface TranscriptHooks {
  strings: TranscriptStrings;
  /** Show tool arguments and results (dashboard), not only names and status (widget). */
  verbose: boolean;
  onRun?: (running: boolean) => void;
  onState?: (state: ConversationState) => void;
  onQuestion?: (q: AskUserValue, history: boolean) => void;
  onQuestionResolved?: (questionId: string, value: Record<string, unknown>) => void;
  onAnnounce?: (text: string) => void;
  /** A user message was logged (the widget drops its optimistic copy). */
  onUserMessage?: (text: string) => void;
  /** A file the agent wrote: return the element to show for it. */
  fileLink?: (path: string) => HTMLElement;
}

interface TextMessage {
  role: string;
  text: string;
  body: HTMLElement;
  dirty: boolean;
}

/** The transcript of one conversation. */
export class Transcript {
  readonly el: HTMLElement = h("div", { class: "transcript" });
  private readonly texts = new Map<string, TextMessage>();
  private readonly subAgents = new Map<string, HTMLElement>();
  private state: ConversationState = { tasks: [], pending_question: null };
  private readonly tools: ToolSteps;
  private frame = 0;
  private readonly handlers: EventHandlers;

  constructor(private readonly hooks: TranscriptHooks) {
    this.tools = new ToolSteps(hooks.strings, hooks.verbose, (row) => this.add(row), hooks.fileLink);
    this.handlers = {
      RUN_STARTED: () => this.hooks.onRun?.(true),
      RUN_FINISHED: () => this.hooks.onRun?.(false),
      RUN_ERROR: (e) => this.runError(e),
      TEXT_MESSAGE_START: (e) => this.textStart(e.messageId, e.role ?? "assistant"),
      TEXT_MESSAGE_CONTENT: (e, history) => this.textContent(e.messageId, e.delta, history),
      TEXT_MESSAGE_END: (e, history) => this.textEnd(e.messageId, history),
      TOOL_CALL_START: (e) => this.tools.start(e.toolCallId, e.toolCallName),
      TOOL_CALL_ARGS: (e) => this.tools.args(e.toolCallId, e.delta),
      TOOL_CALL_RESULT: (e) => this.tools.result(e.toolCallId, asText(e.content), isError(e), resultFiles(e)),
      STATE_SNAPSHOT: (e) => this.setState(e.snapshot as ConversationState),
      STATE_DELTA: (e) => this.setState(applyStateDelta(this.state, e.delta as never)),
      CUSTOM: (e, history) => this.custom(e, history),
    };
  }

  /** Applies one event; `history` is true while replaying events seen before. */
  apply(event: CirrusEvent, history = false): void {
    const handler = this.handlers[event.type as keyof EventsByType] as
      | ((e: CirrusEvent, history: boolean) => void)
      | undefined;
    handler?.(event, history);
  }

  /** Appends an element to the transcript. */
  add(node: HTMLElement): void {
    this.el.append(node);
  }

  private textStart(id: string, role: string): void {
    if (this.texts.has(id)) return;
    const body = h("div", { class: "md", "aria-busy": "true" });
    const who = role === "user" ? this.hooks.strings.you : this.hooks.strings.assistant;
    this.add(
      h(
        "div",
        { class: `msg ${role === "user" ? "user" : "assistant"}` },
        h("span", { class: "sr-only" }, `${who}: `),
        body,
      ),
    );
    this.texts.set(id, { role, text: "", body, dirty: false });
  }

  private textContent(id: string, delta: string, history: boolean): void {
    if (!this.texts.has(id)) this.textStart(id, "assistant");
    const msg = this.texts.get(id)!;
    msg.text += delta;
    msg.dirty = true;
    if (!history) this.scheduleRender();
  }

  private textEnd(id: string, history: boolean): void {
    const msg = this.texts.get(id);
    if (!msg) return;
    this.render(msg);
    msg.body.removeAttribute("aria-busy");
    if (msg.role === "user") this.hooks.onUserMessage?.(msg.text);
    else if (!history) this.hooks.onAnnounce?.(msg.body.textContent ?? "");
  }

  private scheduleRender(): void {
    if (this.frame) return;
    const run = () => {
      this.frame = 0;
      for (const msg of this.texts.values()) if (msg.dirty) this.render(msg);
    };
    this.frame =
      typeof requestAnimationFrame === "function"
        ? requestAnimationFrame(run)
        : (setTimeout(run, 16) as unknown as number);
  }

  private render(msg: TextMessage): void {
    msg.dirty = false;
    clear(msg.body);
    msg.body.append(renderMarkdown(msg.text));
  }

  private runError(e: EventsByType["RUN_ERROR"]): void {
    this.add(h("div", { class: "row error", role: "alert" }, `${this.hooks.strings.error} ${e.message}`));
    this.hooks.onRun?.(false);
  }

  private setState(state: ConversationState): void {
    const hadQuestion = this.state.pending_question;
    this.state = {
      tasks: state.tasks ?? [],
      pending_question: state.pending_question ?? null,
      tabs: state.tabs ?? [],
      pending_takeover: state.pending_takeover ?? null,
      pending_approvals: state.pending_approvals ?? [],
    };
    if (hadQuestion && !this.state.pending_question)
      this.hooks.onQuestionResolved?.(hadQuestion.question_id, {});
    this.hooks.onState?.(this.state);
  }

  private custom(e: EventsByType["CUSTOM"], history: boolean): void {
    const value = (e.value ?? {}) as Record<string, unknown>;
    if (e.name === "ask_user") this.hooks.onQuestion?.(value as AskUserValue, history);
    else if (e.name === "ask_user_resolved")
      this.hooks.onQuestionResolved?.(String(value.question_id ?? ""), value);
    else if (e.name === "notice")
      this.add(h("div", { class: "row notice" }, String(value.message ?? value.text ?? "")));
    else if (e.name === "model_fallback")
      this.add(
        h(
          "div",
          { class: "row notice" },
          `${String(value.from)} failed (${String(value.reason)}); ${String(value.to)} answers from now on.`,
        ),
      );
    else if (e.name === "sub_agent_event") this.subAgent(value);
    else if (e.name === "approval_resolved" && this.hooks.verbose) this.approvalResolved(value);
  }

  /** The dashboard's record of a decision: which tool, approved or denied, why. */
  private approvalResolved(value: Record<string, unknown>): void {
    const verdict = value.decision === "approve" ? "approved" : "denied";
    const why = value.reason ? ` (${String(value.reason)})` : "";
    const edited = value.arguments_edited ? ", arguments edited" : "";
    this.add(
      h(
        "div",
        { class: "row approval-row", "data-decision": String(value.decision ?? "") },
        `${String(value.tool_name ?? "tool")} ${verdict}${edited}${why}`,
      ),
    );
  }

  /** One line per sub-agent (`{sub_agent_id, label, agent_type, event}`), showing its latest activity. */
  private subAgent(value: Record<string, unknown>): void {
    const id = String(value.sub_agent_id ?? "sub-agent");
    const inner = (value.event ?? {}) as Record<string, unknown>;
    const activity =
      inner.type === "TOOL_CALL_START"
        ? String(inner.toolCallName ?? "")
        : String(inner.type ?? "").toLowerCase();
    const label = `${this.hooks.strings.subAgent} ${String(value.label ?? value.agent_type ?? id)}: ${activity}`;
    let row = this.subAgents.get(id);
    if (!row) {
      row = h("div", { class: "row subagent" });
      this.subAgents.set(id, row);
      this.add(row);
    }
    row.textContent = label;
    const done = inner.type === "RUN_FINISHED" || inner.type === "RUN_ERROR";
    row.setAttribute("data-status", done ? (inner.type === "RUN_ERROR" ? "failed" : "done") : "running");
  }
}

function isError(e: EventsByType["TOOL_CALL_RESULT"]): boolean {
  const meta = (e as { metadata?: { is_error?: boolean } }).metadata;
  return meta?.is_error === true;
}
