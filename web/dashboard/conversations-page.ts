/**
 * One conversation: replayed from its event log and live while it runs, with a composer to talk
 * to it, its pending question answerable inline, tasks and tabs. The list is conversation-list.ts.
 */
import { ApprovalsView } from "../ui/approvals-view";
import { clear, h } from "../ui/dom";
import { EventStream } from "../ui/event-stream";
import { type AskUserValue, asText, type ConversationState } from "../ui/event-types";
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

/** The page's views around the transcript; `spans` feeds the recording player's timeline. */
interface Views {
  tasks: HTMLElement;
  tabs: TabsView;
  spans: ToolSpan[];
  recordings: RecordingsView;
  takeover: TakeoverSlot;
  status: HTMLElement;
  title: HTMLElement;
  banner: HTMLElement;
  composer: Composer;
  question: QuestionInline;
  approvals: ApprovalsView;
}

/** Replays one conversation's events: messages, tool calls with arguments and results, questions. */
export async function conversationPage(main: HTMLElement, id: string): Promise<() => void> {
  const views = conversationViews(id);
  const transcript = conversationTranscript(views);
  main.append(
    h("p", {}, h("a", { href: "#/conversations" }, "← Conversations")),
    views.title,
    views.banner,
    views.status,
    views.approvals.el,
    views.tasks,
    views.takeover.el,
    views.tabs.el,
    views.recordings.el,
    h("div", { class: "card" }, transcript.el),
    views.question.el,
    views.composer.el,
  );
  api<{ title: string | null }>(`/v1/conversations/${encodeURIComponent(id)}`)
    .then((c) => {
      if (c.title) views.title.textContent = c.title;
    })
    .catch(() => {});
  const stream = conversationStream(id, views, transcript);
  stream.start();
  return () => {
    stream.stop();
    views.tabs.stop();
    views.recordings.stop();
    views.takeover.stop();
  };
}

/** Builds the views of conversation `id`, none of them loaded yet. */
function conversationViews(id: string): Views {
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
  const approvals = approvalsView(id);
  return { tasks, tabs, spans, recordings, takeover, status, title, banner, composer, question, approvals };
}

/** Pending approvals of conversation `id`, decided through the API. */
function approvalsView(id: string): ApprovalsView {
  return new ApprovalsView(
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
}

/** The verbose transcript; its state and run changes update the other views. */
function conversationTranscript(views: Views): Transcript {
  const transcript: Transcript = new Transcript({
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
      renderTasks(views.tasks, state);
      views.question.render(state.pending_question);
      views.approvals.render(state.pending_approvals ?? []);
      views.tabs.setTabs(state.tabs);
      views.takeover.render(state.pending_takeover);
    },
    onQuestion: (q) => transcript.add(questionRow(q)),
    onQuestionResolved: (_id, value) => {
      if ("answer" in value || "reason" in value) transcript.add(answerRow(value));
    },
    onRun: (running) => {
      if (!running) views.recordings.refresh().catch(() => {});
      views.status.textContent = running ? "Running…" : "Idle";
      views.composer.setRunning(running);
      views.tabs.setRunning(running);
    },
    fileLink: (path) => fileRow(path),
  });
  return transcript;
}

/** The transcript row of an `ask_user` question, with its options. */
function questionRow(q: AskUserValue): HTMLElement {
  return h(
    "div",
    { class: "row question-row" },
    h("strong", {}, "ask_user: "),
    q.question,
    q.options?.length ? ` [${q.options.join(" | ")}]${q.multiple ? " (multiple)" : ""}` : "",
  );
}

/** The transcript row of a question's answer (or the reason it went unanswered). */
function answerRow(value: Record<string, unknown>): HTMLElement {
  return h(
    "div",
    { class: "row question-row" },
    h("strong", {}, "answer: "),
    asText(value.answer ?? value.reason),
  );
}

/** The conversation's event stream from the start: fed to the transcript, spans and banner. */
function conversationStream(id: string, views: Views, transcript: Transcript): EventStream {
  return new EventStream({
    url: `/v1/conversations/${encodeURIComponent(id)}/events`,
    headers: authHeaders,
    after: 0,
    onEvent: (_seq, event) => {
      if (views.status.textContent === "Loading…") views.status.textContent = "Idle";
      transcript.apply(event);
      trackToolSpan(views.spans, event);
      const review = reviewRow(event);
      if (review) transcript.add(review);
      modelBanner(views.banner, event);
    },
    onFatal: (code) => {
      views.status.textContent = code === 404 ? "No such conversation." : `Refused (${code}).`;
    },
  });
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
