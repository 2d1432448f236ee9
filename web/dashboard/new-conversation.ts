/** "New conversation": instructions, model, allowed tools and browser profile, then the chat. */
import { h } from "../ui/dom";
import { api } from "./client";
import { failureText, field, notice } from "./ui";

/** The form; on success it opens the new conversation's chat. */
export function newConversationForm(onCancel: () => void): HTMLElement {
  const title = h("input", {
    type: "text",
    maxlength: "200",
    placeholder: "Optional: the first message names it",
  });
  const instructions = h("textarea", {
    rows: "3",
    placeholder: "Optional instructions for this conversation",
  });
  const model = h("input", { type: "text", placeholder: "Default model" });
  const tools = h("input", { type: "text", placeholder: "All tools; or e.g. web_search, web_fetch" });
  const profile = h("input", { type: "text", placeholder: "None" });
  const approvals = h("input", { type: "text", placeholder: "e.g. opfs_delete=ask, shop__*=deny" });
  const out = h("div");
  const cancel = h("button", { type: "button", class: "secondary" }, "Cancel");
  cancel.addEventListener("click", onCancel);
  const form = h(
    "form",
    { class: "card new-conversation" },
    h("h2", {}, "New conversation"),
    field("Title", title),
    field("Instructions", instructions),
    field("Model", model),
    field("Allowed tools", tools, "Comma-separated tool names; empty for every tool."),
    field("Browser profile", profile, "A saved browser profile to start logged in; empty for none."),
    field(
      "Approvals",
      approvals,
      "tool or glob = ask | allow | deny, comma-separated; the stricter of this and the workspace's wins.",
    ),
    h("p", {}, h("button", { type: "submit" }, "Start"), " ", cancel),
    out,
  );
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    const body: Record<string, unknown> = { channel: "dashboard" };
    if (title.value.trim()) body.title = title.value.trim();
    if (instructions.value.trim()) body.instructions = instructions.value.trim();
    if (model.value.trim()) body.model = model.value.trim();
    const allowed = tools.value
      .split(/[\s,]+/)
      .map((t) => t.trim())
      .filter(Boolean);
    if (allowed.length) body.allowed_tools = allowed;
    if (profile.value.trim()) body.browser_profile = profile.value.trim();
    const rules = approvals.value
      .split(",")
      .map((r) => r.split("=").map((x) => x.trim()))
      .filter((r) => r[0]);
    if (rules.length) body.approvals = Object.fromEntries(rules.map(([k, v]) => [k, v ?? ""]));
    try {
      const conv = await api<{ id: string }>("/v1/conversations", { method: "POST", json: body });
      location.hash = `#/conversations/${encodeURIComponent(conv.id)}`;
    } catch (err) {
      out.replaceChildren(notice(failureText(err), true));
    }
  });
  return form;
}
