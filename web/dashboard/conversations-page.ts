/** Conversations: the list, and one conversation replayed from its event log (live while it runs). */
import { ApprovalsView } from "../shared/approvals-view";
import { clear, h } from "../shared/dom";
import { EventStream } from "../shared/event-stream";
import { asText, type ConversationState } from "../shared/event-types";
import { Transcript } from "../shared/transcript";
import { api, authHeaders } from "./client";
import { downloadFile } from "./files-page";
import { TabsView } from "./tabs-view";
import { failureText, notice, when } from "./ui";

interface ConversationRow {
  id: string;
  created_at: number;
  model: string;
  metadata: Record<string, string>;
}

/** The newest conversations of the workspace. */
export async function conversationsPage(main: HTMLElement): Promise<undefined> {
  main.append(h("h1", {}, "Conversations"));
  const page = await api<{ data: ConversationRow[] }>("/v1/conversations?limit=50");
  if (!page.data.length) {
    main.append(notice("No conversations yet."));
    return undefined;
  }
  const rows = page.data.map((c) =>
    h(
      "tr",
      {},
      h("td", {}, h("a", { href: `#/conversations/${encodeURIComponent(c.id)}` }, c.id)),
      h("td", {}, when(c.created_at)),
      h("td", {}, c.metadata.channel ?? "api"),
      h("td", {}, c.metadata.origin ?? ""),
      h("td", {}, c.model),
    ),
  );
  main.append(
    h(
      "div",
      { class: "card" },
      h(
        "table",
        {},
        h(
          "thead",
          {},
          h(
            "tr",
            {},
            ...["Conversation", "Created", "Channel", "Origin", "Model"].map((t) => h("th", {}, t)),
          ),
        ),
        h("tbody", {}, ...rows),
      ),
    ),
  );
  return undefined;
}

/** Replays one conversation's events: messages, tool calls with arguments and results, questions. */
export async function conversationPage(main: HTMLElement, id: string): Promise<() => void> {
  const tasks = h("div", { class: "card" });
  const tabs = new TabsView(id);
  const status = h("p", { class: "muted", role: "status" }, "Loading…");
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
      approvals.render(state.pending_approvals ?? []);
      tabs.setTabs(state.tabs);
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
      status.textContent = running ? "Running…" : "Idle";
      tabs.setRunning(running);
    },
    fileLink: (path) => fileRow(path),
  });
  main.append(
    h("p", {}, h("a", { href: "#/conversations" }, "← Conversations")),
    h("h1", {}, id),
    status,
    approvals.el,
    tasks,
    tabs.el,
    h("div", { class: "card" }, transcript.el),
  );
  const stream = new EventStream({
    url: `/v1/conversations/${encodeURIComponent(id)}/events`,
    headers: authHeaders,
    after: 0,
    onEvent: (_seq, event) => {
      if (status.textContent === "Loading…") status.textContent = "Idle";
      transcript.apply(event);
    },
    onFatal: (code) => {
      status.textContent = code === 404 ? "No such conversation." : `Refused (${code}).`;
    },
  });
  stream.start();
  return () => {
    stream.stop();
    tabs.stop();
  };
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

function renderTasks(el: HTMLElement, state: ConversationState): void {
  clear(el);
  el.append(h("strong", {}, "Tasks"));
  if (!state.tasks.length) el.append(h("p", { class: "muted" }, "No tasks."));
  else el.append(h("ul", {}, ...state.tasks.map((t) => h("li", {}, `${t.subject} — ${t.status}`))));
}
