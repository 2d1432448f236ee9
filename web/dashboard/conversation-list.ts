/** The Conversations list: title, status, last activity and channel; search, paging, new, delete. */
import { clear, h } from "../ui/dom";
import { api } from "./client";
import { newConversationForm } from "./new-conversation";
import { failureText, notice, when } from "./ui";

interface ConversationRow {
  id: string;
  title: string | null;
  status: string;
  channel: string;
  last_activity_at: number;
  model: string;
}

interface Page {
  data: ConversationRow[];
  has_more: boolean;
  next_cursor: string | null;
}

const PAGE_SIZE = 25;

/** The newest conversations of the workspace, searchable by title. */
export async function conversationsPage(main: HTMLElement): Promise<undefined> {
  const search = h("input", { type: "search", placeholder: "Search titles", "aria-label": "Search titles" });
  const body = h("div", { class: "card" });
  const newButton = h("button", { type: "button" }, "New conversation");
  const formSlot = h("div");
  newButton.addEventListener("click", () => {
    clear(formSlot);
    formSlot.append(newConversationForm(() => clear(formSlot)));
  });
  main.append(
    h("div", { class: "page-head" }, h("h1", {}, "Conversations"), newButton),
    formSlot,
    h("form", { class: "search", role: "search" }, search),
    body,
  );
  let timer: ReturnType<typeof setTimeout> | undefined;
  search.addEventListener("input", () => {
    clearTimeout(timer);
    timer = setTimeout(() => void load(body, search.value.trim(), null), 250);
  });
  search.form?.addEventListener("submit", (e) => {
    e.preventDefault();
    void load(body, search.value.trim(), null);
  });
  await load(body, "", null);
  return undefined;
}

async function load(body: HTMLElement, q: string, cursor: string | null): Promise<void> {
  const params = new URLSearchParams({ limit: String(PAGE_SIZE) });
  if (q) params.set("q", q);
  if (cursor) params.set("cursor", cursor);
  let page: Page;
  try {
    page = await api<Page>(`/v1/conversations?${params}`);
  } catch (err) {
    clear(body);
    body.append(notice(failureText(err), true));
    return;
  }
  if (!cursor) clear(body);
  body.querySelector(".more")?.remove();
  if (!cursor && !page.data.length) {
    body.append(notice(q ? `No conversation title contains “${q}”.` : "No conversations yet."));
    return;
  }
  let tbody = body.querySelector("tbody");
  if (!tbody) {
    tbody = h("tbody");
    const head = ["Title", "Status", "Last activity", "Channel", ""].map((t) => h("th", {}, t));
    body.append(h("table", { class: "conversations" }, h("thead", {}, h("tr", {}, ...head)), tbody));
  }
  for (const c of page.data) tbody.append(row(c));
  if (page.has_more && page.next_cursor) {
    const more = h("button", { type: "button", class: "more" }, "More");
    more.addEventListener("click", () => void load(body, q, page.next_cursor));
    body.append(more);
  }
}

function row(c: ConversationRow): HTMLElement {
  const del = h(
    "button",
    { type: "button", class: "danger", "aria-label": `Delete ${c.title ?? c.id}` },
    "Delete",
  );
  const tr = h(
    "tr",
    { "data-id": c.id },
    h("td", {}, h("a", { href: `#/conversations/${encodeURIComponent(c.id)}` }, c.title || c.id)),
    h("td", {}, h("span", { class: `status status-${c.status}` }, c.status.replace(/_/g, " "))),
    h("td", {}, when(c.last_activity_at)),
    h("td", {}, c.channel),
    h("td", {}, del),
  );
  del.addEventListener("click", async () => {
    if (!confirm(`Delete “${c.title ?? c.id}” and everything it stored?`)) return;
    try {
      await api(`/v1/conversations/${encodeURIComponent(c.id)}`, { method: "DELETE" });
      tr.remove();
    } catch (err) {
      tr.after(h("tr", {}, h("td", { colspan: "5" }, notice(failureText(err), true))));
    }
  });
  return tr;
}
