/**
 * One conversation: replayed from its event log and live while it runs, with a composer to talk
 * to it, its pending question answerable inline, tasks and tabs. The list is conversation-list.ts.
 */
import { ApprovalsView } from "../ui/approvals-view";
import { clear, h } from "../ui/dom";
import { EventStream } from "../ui/event-stream";
import { asText, type ConversationState } from "../ui/event-types";
import { TakeoverSlot } from "../ui/takeover-panel";
import { Transcript } from "../ui/transcript";
import { api, authHeaders } from "./client";
import { Composer } from "./composer";
import { downloadFile } from "./files-page";
import { QuestionInline } from "./question-inline";
import { RecordingsView, type ToolSpan } from "./recordings-view";
import { reviewRow } from "./research-view";
import { TabsView } from "./tabs-view";
import { failureText, notice } from "./ui";

/** Replays one conversation's events: messages, tool calls with arguments and results, questions. */
export async function conversationPage(main: HTMLElement, id: string): Promise<() => void> {
  const tasks = h("div", { class: "card" });
  const tabs = new TabsView(id);
  const spans: ToolSpan[] = [];
  const recordings = new RecordingsView(id, () => spans);
  const takeover = new TakeoverSlot(
    () => `/v1/conversations/${encodeURIComponent(id)}`,
    authHeaders,
    { title: "Take-over requested", done: "Done — hand the browser back" },
    "card takeover-slot",
  );
  const status = h("p", { class: "muted", role: "status" }, "Loading…");
  const title = h("h1", {}, id);
  const banner = h("div");
  const composer = new Composer(id);
  const question = new QuestionInline(id);
  const approvals = new ApprovalsView(
    {
      approvalNeeded: "Approval needed:",
      approve: "Approve",
      deny: "Deny",
      approvalFailed: "The decision failed.",
    },
    async (approvalId, decision) => {
      await api(`/v1/conversations/${encodeURIComponent(id)}/approvals/${encodeURIComponent(approvalId)}`, {
        method: "POST",
        json: { decision },
      });
    },
  );
  const transcript = new Transcript({
    strings: {
      you: "User",
      assistant: "Assistant",
      subAgent: "Sub-agent",
      error: "Run failed:",
      running: "running",
      done: "done",
      failed: "failed",
    },
    verbose: true,
    onState: (state) => {
      renderTasks(tasks, state);
      question.render(state.pending_question);
      approvals.render(state.pending_approvals ?? []);
      tabs.setTabs(state.tabs);
      takeover.render(state.pending_takeover);
    },
    onQuestion: (q) =>
      transcript.add(
        h(
          "div",
          { class: "row question-row" },
          h("strong", {}, "ask_user: "),
          q.question,
          q.options?.length ? ` [${q.options.join(" | ")}]${q.multiple ? " (multiple)" : ""}` : "",
        ),
      ),
    onQuestionResolved: (_id, value) => {
      if ("answer" in value || "reason" in value)
        transcript.add(
          h(
            "div",
            { class: "row question-row" },
            h("strong", {}, "answer: "),
            asText(value.answer ?? value.reason),
          ),
        );
    },
    onRun: (running) => {
      if (!running) recordings.refresh().catch(() => {});
      status.textContent = running ? "Running…" : "Idle";
      composer.setRunning(running);
      tabs.setRunning(running);
    },
    fileLink: (path) => fileRow(path),
  });
  main.append(
    h("p", {}, h("a", { href: "#/conversations" }, "← Conversations")),
    title,
    banner,
    status,
    approvals.el,
    tasks,
    takeover.el,
    tabs.el,
    recordings.el,
    h("div", { class: "card" }, transcript.el),
    question.el,
    composer.el,
  );
  api<{ title: string | null }>(`/v1/conversations/${encodeURIComponent(id)}`)
    .then((c) => {
      if (c.title) title.textContent = c.title;
    })
    .catch(() => {});
  const stream = new EventStream({
    url: `/v1/conversations/${encodeURIComponent(id)}/events`,
    headers: authHeaders,
    after: 0,
    onEvent: (_seq, event) => {
      if (status.textContent === "Loading…") status.textContent = "Idle";
      transcript.apply(event);
      trackToolSpan(spans, event);
      const review = reviewRow(event);
      if (review) transcript.add(review);
      modelBanner(banner, event);
    },
    onFatal: (code) => {
      status.textContent = code === 404 ? "No such conversation." : `Refused (${code}).`;
    },
  });
  stream.start();
  return () => {
    stream.stop();
    tabs.stop();
    recordings.stop();
    takeover.stop();
  };
}

/** Tool calls' spans (start to result) for the recording player's timeline. */
function trackToolSpan(
  spans: ToolSpan[],
  event: { type: string; timestamp?: number; [k: string]: unknown },
): void {
  const at = event.timestamp ?? Date.now();
  if (event.type === "TOOL_CALL_START")
    spans.push({
      id: String(event.toolCallId),
      name: String(event.toolCallName ?? "tool"),
      start: at,
      end: at,
    });
  if (event.type === "TOOL_CALL_RESULT") {
    const span = spans.find((s) => s.id === String(event.toolCallId));
    if (span) span.end = at;
  }
}

/** A download button for a file the agent wrote (the server lists them on the tool result). */
function fileRow(path: string): HTMLElement {
  const row = h("div", { class: "row file" });
  const button = h("button", { type: "button" }, `Download ${path}`);
  button.addEventListener("click", () =>
    downloadFile(path).catch((err) => row.append(notice(failureText(err), true))),
  );
  row.append(button);
  return row;
}

/** Model set-up problems get a banner saying what to set, not a generic error. */
const MODEL_SETUP_CODES = new Set(["model_not_configured", "model_auth_failed"]);

function modelBanner(el: HTMLElement, event: { type: string; code?: unknown; message?: unknown }): void {
  if (event.type === "RUN_STARTED") clear(el);
  if (event.type !== "RUN_ERROR" || !MODEL_SETUP_CODES.has(String(event.code))) return;
  el.replaceChildren(
    h(
      "div",
      { class: "notice error banner", role: "alert" },
      h("strong", {}, "No usable model. "),
      String(event.message ?? ""),
    ),
  );
}

function renderTasks(el: HTMLElement, state: ConversationState): void {
  clear(el);
  el.append(h("strong", {}, "Tasks"));
  if (!state.tasks.length) el.append(h("p", { class: "muted" }, "No tasks."));
  else el.append(h("ul", {}, ...state.tasks.map((t) => h("li", {}, `${t.subject} — ${t.status}`))));
}
