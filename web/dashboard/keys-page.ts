/** Keys: create and revoke secret and publishable keys, edit a publishable key's allowed origins. */
import { clear, h } from "../ui/dom";
import { api } from "./client";
import { failureText, field, notice, when } from "./ui";

interface Key {
  id: string;
  name: string;
  type: "secret" | "publishable";
  prefix: string;
  allowed_origins: string[];
  created_at: number;
}

/** Splits a textarea of origins (commas or new lines). */
const origins = (raw: string): string[] =>
  raw
    .split(/[\s,]+/)
    .map((o) => o.trim())
    .filter(Boolean);

/** The keys page. */
export async function keysPage(main: HTMLElement): Promise<undefined> {
  const list = h("div", { class: "card" });
  const out = h("div");
  main.append(
    h("h1", {}, "Keys"),
    out,
    createForm(out, () => load(list, out)),
    list,
  );
  await load(list, out);
  return undefined;
}

async function load(list: HTMLElement, out: HTMLElement): Promise<void> {
  const { data } = await api<{ data: Key[] }>("/v1/keys");
  clear(list);
  list.append(
    h(
      "table",
      { "aria-label": "Keys" },
      h(
        "thead",
        {},
        h("tr", {}, ...["Name", "Type", "Key", "Allowed origins", "Created", ""].map((t) => h("th", {}, t))),
      ),
      h("tbody", {}, ...data.map((k) => keyRow(k, out, () => load(list, out)))),
    ),
  );
}

function keyRow(k: Key, out: HTMLElement, reload: () => Promise<void>): HTMLElement {
  const cells: HTMLElement[] = [
    h("td", {}, k.name),
    h("td", {}, k.type),
    h("td", {}, h("code", {}, `${k.prefix}…`)),
  ];
  if (k.type === "publishable") {
    const input = h(
      "textarea",
      { rows: "2", "aria-label": `Allowed origins of ${k.name}` },
      k.allowed_origins.join("\n"),
    );
    const save = h("button", { type: "button", class: "secondary" }, "Save origins");
    save.addEventListener("click", () =>
      act(out, reload, `Origins of ${k.name} saved.`, () =>
        api(`/v1/keys/${k.id}`, { method: "PATCH", json: { allowed_origins: origins(input.value) } }),
      ),
    );
    cells.push(h("td", {}, input, save));
  } else cells.push(h("td", { class: "muted" }, "—"));
  const revoke = h("button", { type: "button", class: "danger" }, "Revoke");
  revoke.addEventListener("click", () => {
    if (revoke.dataset.confirm !== "1") {
      revoke.dataset.confirm = "1";
      revoke.textContent = "Confirm revoke";
      return;
    }
    act(out, reload, `${k.name} revoked.`, () => api(`/v1/keys/${k.id}`, { method: "DELETE" }));
  });
  cells.push(h("td", {}, when(k.created_at)), h("td", {}, revoke));
  return h("tr", { "data-key-id": k.id }, ...cells);
}

async function act(
  out: HTMLElement,
  reload: () => Promise<void>,
  done: string,
  call: () => Promise<unknown>,
): Promise<void> {
  clear(out);
  try {
    await call();
    out.append(notice(done));
    await reload();
  } catch (err) {
    out.append(notice(failureText(err), true));
  }
}

function createForm(out: HTMLElement, reload: () => Promise<void>): HTMLElement {
  const name = h("input", { required: true });
  const type = h(
    "select",
    {},
    h("option", { value: "secret" }, "Secret (server)"),
    h("option", { value: "publishable" }, "Publishable (widget)"),
  );
  const allowed = h("textarea", { rows: "2", placeholder: "https://www.example.com" });
  const form = h(
    "form",
    { class: "card", "aria-label": "Create a key" },
    h("div", { class: "grid" }, field("Name", name), field("Type", type)),
    field("Allowed origins (publishable keys)", allowed, "One per line: scheme, host and port."),
    h("p", {}, h("button", { type: "submit" }, "Create key")),
  );
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    act(out, reload, "", async () => {
      const key = await api<Key & { key: string }>("/v1/keys", {
        method: "POST",
        json: { name: name.value.trim(), type: type.value, allowed_origins: origins(allowed.value) },
      });
      name.value = "";
      allowed.value = "";
      out.append(shownOnce(key));
    });
  });
  return form;
}

function shownOnce(key: Key & { key: string }): HTMLElement {
  const snippet =
    key.type === "publishable"
      ? `<script src="${location.origin}/widget.js" data-key="${key.key}" async></script>`
      : `curl -H "Authorization: Bearer ${key.key}" ${location.origin}/v1/conversations`;
  return h(
    "div",
    { class: "notice", role: "status" },
    h("strong", {}, `Key ${key.name} created. Copy it now: it is shown once.`),
    h("pre", { class: "new-key" }, key.key),
    h("div", {}, key.type === "publishable" ? "Embed snippet:" : "Try it:"),
    h("pre", {}, snippet),
  );
}
