/**
 * MCP: add a workspace's MCP servers (their tools become the agent's), see each one's status and
 * tools, "Connect" a server that needs OAuth (opens the sign-in in a new tab), list its tools
 * again, remove it. Header values are write-only: only their names come back.
 */
import type { McpServerView } from "../../schemas/mcp";
import { clear, h, safeHttpUrl } from "../ui/dom";
import { api } from "./client";
import { failureText, field, notice, when } from "./ui";

const STATUS_TEXT: Record<McpServerView["status"], string> = {
  connected: "connected",
  needs_auth: "needs sign-in",
  error: "error",
};

/** The MCP page. */
export async function mcpPage(main: HTMLElement): Promise<undefined> {
  const list = h("div", { class: "card" });
  const out = h("div");
  const reload = () => load(list, out);
  main.append(
    h("h1", {}, "MCP servers"),
    h(
      "p",
      { class: "muted" },
      "Every conversation and job gets the tools of these servers as <server>__<tool>.",
    ),
    out,
    addForm(out, reload),
    list,
  );
  await reload();
  return undefined;
}

async function load(list: HTMLElement, out: HTMLElement): Promise<void> {
  const { data } = await api<{ data: McpServerView[] }>("/v1/mcp/servers");
  clear(list);
  if (data.length === 0) {
    list.append(h("p", { class: "muted" }, "No MCP servers yet."));
    return;
  }
  list.append(
    h(
      "table",
      { "aria-label": "MCP servers" },
      h(
        "thead",
        {},
        h("tr", {}, ...["Name", "URL", "Status", "Tools", "Added", ""].map((t) => h("th", {}, t))),
      ),
      h("tbody", {}, ...data.map((s) => serverRow(s, out, () => load(list, out)))),
    ),
  );
}

/** One server's row: name, URL and header names, status, tools, date added and actions. */
function serverRow(s: McpServerView, out: HTMLElement, reload: () => Promise<void>): HTMLElement {
  return h(
    "tr",
    { "data-server-id": s.id, "data-server-name": s.name },
    h("td", {}, s.name),
    h(
      "td",
      {},
      h("code", {}, s.url),
      s.header_names.length ? h("div", { class: "muted" }, `headers: ${s.header_names.join(", ")}`) : null,
    ),
    statusCell(s),
    h("td", {}, toolList(s)),
    h("td", {}, when(s.created_at)),
    actionsCell(s, out, reload),
  );
}

/** The server's tools, folded, each under the name the agent sees. */
function toolList(s: McpServerView): HTMLElement {
  return h(
    "details",
    {},
    h("summary", {}, `${s.tools.length} tool${s.tools.length === 1 ? "" : "s"}`),
    h(
      "ul",
      {},
      ...s.tools.map((t) =>
        h("li", {}, h("code", {}, `${s.name}__${t.name}`), t.description ? ` — ${t.description}` : ""),
      ),
    ),
  );
}

/** The status cell, with the error if there is one. */
function statusCell(s: McpServerView): HTMLElement {
  return h(
    "td",
    {},
    h("span", { class: `status status-${s.status}`, "data-status": s.status }, STATUS_TEXT[s.status]),
    s.error ? h("div", { class: "muted" }, s.error) : null,
  );
}

/** The actions cell: Connect (when it needs sign-in), Refresh and Remove (asks once to confirm). */
function actionsCell(s: McpServerView, out: HTMLElement, reload: () => Promise<void>): HTMLElement {
  const actions = h("td", {});
  if (s.status === "needs_auth") actions.append(connectButton(s, out));
  const refresh = h("button", { type: "button", class: "secondary" }, "Refresh");
  refresh.addEventListener("click", () =>
    act(out, reload, `${s.name}: tools listed again.`, () =>
      api(`/v1/mcp/servers/${s.id}/refresh`, { method: "POST" }),
    ),
  );
  const remove = h("button", { type: "button", class: "danger" }, "Remove");
  remove.addEventListener("click", () => {
    if (remove.dataset.confirm !== "1") {
      remove.dataset.confirm = "1";
      remove.textContent = "Confirm remove";
      return;
    }
    act(out, reload, `${s.name} removed.`, () => api(`/v1/mcp/servers/${s.id}`, { method: "DELETE" }));
  });
  actions.append(refresh, remove);
  return actions;
}

/** "Connect": opens the server's OAuth sign-in in a new tab. */
function connectButton(s: McpServerView, out: HTMLElement): HTMLButtonElement {
  const connect = h("button", { type: "button" }, "Connect");
  connect.addEventListener("click", async () => {
    clear(out);
    try {
      const { authorization_url } = await api<{ authorization_url: string }>(
        `/v1/mcp/servers/${s.id}/authorize`,
      );
      const url = safeHttpUrl(authorization_url);
      if (!url) throw new Error("The server gave an authorization URL that is not http(s).");
      window.open(url, "_blank", "noopener");
      out.append(notice(`Sign in to ${s.name} in the new tab, then press Refresh.`));
    } catch (err) {
      out.append(notice(failureText(err), true));
    }
  });
  return connect;
}

async function act(
  out: HTMLElement,
  reload: () => Promise<void>,
  done: string,
  call: () => Promise<unknown>,
) {
  clear(out);
  try {
    await call();
    await reload();
    if (done) out.append(notice(done));
  } catch (err) {
    out.append(notice(failureText(err), true));
  }
}

function addForm(out: HTMLElement, reload: () => Promise<void>): HTMLElement {
  const name = h("input", { required: true, pattern: "[a-z0-9_-]{1,32}", placeholder: "crm" });
  const url = h("input", { required: true, type: "url", placeholder: "https://mcp.example.com/mcp" });
  const token = h("input", { type: "password", autocomplete: "off", placeholder: "optional" });
  const form = h(
    "form",
    { class: "card", "aria-label": "Add an MCP server" },
    h(
      "div",
      { class: "grid" },
      field("Name", name, "a-z, 0-9, _ and -; the prefix of its tools."),
      field("URL", url),
    ),
    field(
      "Bearer token",
      token,
      "Sent as Authorization: Bearer …; stored encrypted, never shown again. Leave empty for OAuth.",
    ),
    h("p", {}, h("button", { type: "submit" }, "Add server")),
  );
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    act(out, reload, "", async () => {
      const secret = token.value.trim();
      const added = await api<McpServerView>("/v1/mcp/servers", {
        method: "POST",
        json: {
          name: name.value.trim(),
          url: url.value.trim(),
          ...(secret ? { headers: { Authorization: `Bearer ${secret}` } } : {}),
        },
      });
      name.value = "";
      url.value = "";
      token.value = "";
      out.append(
        notice(
          `${added.name} added: ${STATUS_TEXT[added.status]}, ${added.tools.length} tools.`,
          added.status === "error",
        ),
      );
    });
  });
  return form;
}
