/**
 * get_tab_content's walker as it was before the typed walker (engine/browser/walker/): the body
 * (or `<main>`) whole, every heading, link and field annotated with a full nth-of-type path.
 * Kept only so bench/tab-content.ts can run it side by side with today's walker in one run.
 */

/** Builds the expression that extracts the page (or the part matching `selector`). */
export function legacyExtractionScript(selector: string | undefined): string {
  return `(${EXTRACT})(${JSON.stringify(selector ?? null)})`;
}

/** Finds the root to read: the requested selector, else `main`, else `body`. */
const FIND_ROOT = `
  const base = { url: location.href, title: document.title };
  let root;
  try {
    root = requested ? document.querySelector(requested) : document.querySelector("main") || document.body;
  } catch (e) {
    return { ...base, used_selector: requested, content: "", error: "bad_selector" };
  }
  if (!root) return { ...base, used_selector: requested || "body", content: "", error: "no_match" };
  const used = requested || (root.tagName === "MAIN" ? "main" : "body");`;

/** Builds short unique CSS selectors: id, a distinctive attribute, else an nth-of-type path. */
const SELECTOR_HELPERS = String.raw`
  const esc = (s) => CSS.escape(s);
  const unique = (sel) => { try { return document.querySelectorAll(sel).length === 1; } catch { return false; } };
  const squash = (s) => (s || "").replace(/\s+/g, " ").trim();
  const selectorOf = (el) => {
    if (el.id && unique("#" + esc(el.id))) return "#" + esc(el.id);
    const tag = el.tagName.toLowerCase();
    for (const attr of ["name", "data-testid", "aria-label"]) {
      const v = el.getAttribute(attr);
      if (!v) continue;
      const s = tag + "[" + attr + '="' + v.replace(/["\\]/g, "\\$&") + '"]';
      if (unique(s)) return s;
    }
    const parts = [];
    for (let n = el; n && n.nodeType === 1; n = n.parentElement) {
      if (n !== el && n.id && unique("#" + esc(n.id))) { parts.unshift("#" + esc(n.id)); break; }
      const t = n.tagName.toLowerCase();
      if (t === "body" || t === "html") { parts.unshift(t); break; }
      let i = 1;
      for (let s = n.previousElementSibling; s; s = s.previousElementSibling) if (s.tagName === n.tagName) i++;
      parts.unshift(t + ":nth-of-type(" + i + ")");
    }
    return parts.join(" > ");
  };`;

/** Describes form fields with their label, value (passwords masked) and selector. */
const FIELD_HELPERS = `
  const labelOf = (el) =>
    squash((el.labels && el.labels[0] && el.labels[0].innerText) || el.getAttribute("aria-label") ||
      el.getAttribute("placeholder") || el.getAttribute("name") || el.getAttribute("title") || "");
  const field = (el) => {
    const tag = el.tagName.toLowerCase();
    const type = (el.getAttribute("type") || (tag === "input" ? "text" : tag)).toLowerCase();
    const sel = " {" + selectorOf(el) + "}";
    if (type === "hidden") return "";
    if (type === "checkbox" || type === "radio")
      return "[" + type + (el.checked ? " (checked)" : "") + ": " + labelOf(el) + "]" + sel;
    if (tag === "select") {
      const opts = Array.from(el.options).map((o) => squash(o.text) + (o.selected ? " (selected)" : ""));
      return "[select: " + labelOf(el) + "; options: " + opts.join(" | ") + "]" + sel;
    }
    const value = type === "password" ? (el.value ? "••••••" : "") : el.value;
    return "[" + (tag === "textarea" ? "textarea" : type + " field") + ": " + labelOf(el) +
      (value ? ' = "' + value + '"' : "") + "]" + sel;
  };`;

/** Walks the DOM into Markdown lines: headings, lists, tables, links, buttons and fields. */
const WALKER = String.raw`
  const SKIP = /^(SCRIPT|STYLE|NOSCRIPT|TEMPLATE|HEAD|META|LINK|SVG|CANVAS|IFRAME|OBJECT)$/;
  const BLOCK = /^(ADDRESS|ARTICLE|ASIDE|BLOCKQUOTE|DETAILS|DIALOG|DIV|DL|DT|DD|FIELDSET|FIGCAPTION|FIGURE|FOOTER|FORM|HEADER|MAIN|NAV|OL|UL|P|SECTION|SUMMARY|BODY|LEGEND|TABLE|THEAD|TBODY|TFOOT)$/;
  const CLICKABLE_ROLES = /^(button|link|tab|menuitem|option|switch)$/;
  let out = [];
  let buf = "";
  const flush = () => { const t = buf.replace(/[ \t\r\n]+/g, " ").trim(); if (t) out.push(t); buf = ""; };
  const inline = (el) => {
    const [o, b] = [out, buf];
    out = []; buf = "";
    for (const c of el.childNodes) walk(c);
    flush();
    const text = out.join(" ");
    out = o; buf = b;
    return text;
  };
  const walk = (node) => {
    if (node.nodeType === 3) { buf += node.textContent; return; }
    if (node.nodeType !== 1) return;
    const el = node;
    const tag = el.tagName;
    if (SKIP.test(tag)) return;
    if (el.checkVisibility && !el.checkVisibility()) return;
    const role = el.getAttribute("role") || "";
    if (/^H[1-6]$/.test(tag)) {
      flush();
      out.push("#".repeat(Number(tag[1])) + " " + squash(el.innerText) + " {" + selectorOf(el) + "}");
      return;
    }
    if (tag === "A" && el.hasAttribute("href")) {
      buf += " [" + (squash(el.innerText) || el.getAttribute("aria-label") || el.href) + "](" + el.href + ") {" + selectorOf(el) + "} ";
      return;
    }
    if (tag === "BUTTON" || (tag === "INPUT" && /^(button|submit|reset|image)$/i.test(el.type))) {
      buf += " [button: " + (squash(el.innerText || el.value) || el.getAttribute("aria-label") || "") + "] {" + selectorOf(el) + "} ";
      return;
    }
    if (tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT") {
      const f = field(el);
      if (f) { flush(); out.push(f); }
      return;
    }
    if (CLICKABLE_ROLES.test(role) || el.hasAttribute("onclick")) {
      buf += " [" + (role || "clickable") + ": " + squash(el.innerText) + "] {" + selectorOf(el) + "} ";
      return;
    }
    if (tag === "IMG") { if (el.alt) buf += " ![" + squash(el.alt) + "](" + el.src + ") "; return; }
    if (tag === "BR") { buf += "\n"; return; }
    if (tag === "HR") { flush(); out.push("---"); return; }
    if (tag === "PRE") { flush(); out.push("\u0060\u0060\u0060\n" + el.innerText + "\n\u0060\u0060\u0060"); return; }
    if (tag === "LI") {
      flush();
      const bullet = el.parentElement && el.parentElement.tagName === "OL" ? "1. " : "- ";
      out.push(bullet + inline(el));
      return;
    }
    if (tag === "TR") {
      flush();
      const cells = Array.from(el.children).map((c) => inline(c).replace(/\|/g, "\\|"));
      out.push("| " + cells.join(" | ") + " |");
      return;
    }
    const block = BLOCK.test(tag);
    if (block) flush();
    for (const c of el.childNodes) walk(c);
    if (block) flush();
  };`;

/** The whole extraction function, assembled from the parts above. */
const EXTRACT = String.raw`function (requested) {
${FIND_ROOT}${SELECTOR_HELPERS}${FIELD_HELPERS}${WALKER}  walk(root);
  flush();
  return { ...base, used_selector: used, content: out.join("\n\n") };
}`;
