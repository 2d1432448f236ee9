/**
 * Writes a rendered DOM subtree as Markdown. Only what the agent can act on carries a selector
 * in braces: links, buttons, form fields, clickable roles and the headings that anchor sections
 * (`## Pricing {#pricing}`, `[button: Send] {[data-c="3"]}`).
 */
import {
  ELEMENT_NODE,
  isReadable,
  renderedText,
  squash,
  TEXT_NODE,
  textOf,
  type WElement,
  type WNode,
} from "./dom";
import { linkPlace, linkTarget } from "./link-target";
import type { SelectorMaker } from "./selectors";

/** Elements that start and end a block of text. */
const BLOCK_TAGS = new Set(
  "ADDRESS ARTICLE ASIDE BLOCKQUOTE DETAILS DIALOG DIV DL DT DD FIELDSET FIGCAPTION FIGURE FOOTER FORM HEADER MAIN NAV OL UL P SECTION SUMMARY BODY LEGEND TABLE THEAD TBODY TFOOT".split(
    " ",
  ),
);
/** ARIA roles of elements that act when clicked. */
const CLICKABLE_ROLES = /^(button|link|tab|menuitem|option|switch|checkbox|radio)$/;
/** Headings down to this level anchor sections and carry a selector. */
const ANCHORED_HEADING_LEVEL = 3;
/** Input types that are buttons. */
const BUTTON_INPUTS = /^(button|submit|reset|image)$/i;

/** The selectors a block carries, and its links' targets. */
const ANNOTATIONS = / \{[^{}\n]+\}/g;
const LINK_TARGETS = /\]\([^)]*\)/g;

/** The label a form field shows: its <label>, aria-label, placeholder, name or title. */
function labelOf(el: WElement): string {
  const label = el.labels && el.labels.length > 0 ? textOf(el.labels[0]) : "";
  return squash(
    label ||
      el.getAttribute("aria-label") ||
      el.getAttribute("placeholder") ||
      el.getAttribute("name") ||
      el.getAttribute("title") ||
      "",
  );
}

/** A form field with its label, value (passwords masked) and selector; "" for hidden inputs. */
function field(el: WElement, sel: string): string {
  const tag = el.tagName.toLowerCase();
  const type = (el.getAttribute("type") || (tag === "input" ? "text" : tag)).toLowerCase();
  if (type === "hidden") return "";
  const at = ` {${sel}}`;
  if (type === "checkbox" || type === "radio")
    return `[${type}${el.checked ? " (checked)" : ""}: ${labelOf(el)}]${at}`;
  if (tag === "select") {
    const opts = Array.from(el.options ?? []).map((o) => squash(o.text) + (o.selected ? " (selected)" : ""));
    return `[select: ${labelOf(el)}; options: ${opts.join(" | ")}]${at}`;
  }
  const raw = el.value ?? "";
  const value = type === "password" ? (raw ? "••••••" : "") : raw;
  const kind = tag === "textarea" ? "textarea" : `${type} field`;
  return `[${kind}: ${labelOf(el)}${value ? ` = "${value}"` : ""}]${at}`;
}

/** Walks one subtree into Markdown blocks. */
export class MarkdownWriter {
  private out: string[] = [];
  private buf = "";
  private readonly selectors: SelectorMaker;
  private readonly pageUrl: string;
  /** Links (label and target) already written: the same link again is left out. */
  private readonly links = new Set<string>();
  /** Targets already written: another link to one of them gives its label and selector only. */
  private readonly targets = new Set<string>();
  private readonly skip: ReadonlySet<WElement>;

  /** `pageUrl`: links on its origin are written as paths; `skip`: subtrees left out (the chrome folded out of a main region). */
  constructor(selectors: SelectorMaker, pageUrl: string, skip: ReadonlySet<WElement> = new Set()) {
    this.selectors = selectors;
    this.pageUrl = pageUrl;
    this.skip = skip;
  }

  /** The Markdown of `root`, blocks separated by blank lines. */
  write(root: WElement): string {
    this.walk(root);
    this.flush();
    // A block with no words (an empty list item or table row, a rule) says nothing.
    return this.out
      .filter((block) => /[\p{L}\p{N}]/u.test(block.replace(ANNOTATIONS, "").replace(LINK_TARGETS, "]")))
      .join("\n\n");
  }

  private flush(): void {
    const text = this.buf.replace(/[ \t\r\n]+/g, " ").trim();
    if (text) this.out.push(text);
    this.buf = "";
  }

  /** The Markdown of an element's children as one line (list items, table cells). */
  private inline(el: WElement): string {
    const [out, buf] = [this.out, this.buf];
    this.out = [];
    this.buf = "";
    this.children(el);
    this.flush();
    const text = this.out.join(" ");
    [this.out, this.buf] = [out, buf];
    return text;
  }

  private children(el: WElement): void {
    for (let i = 0; i < el.childNodes.length; i++) this.walk(el.childNodes[i]);
  }

  private walk(node: WNode): void {
    if (node.nodeType === TEXT_NODE) {
      const text = node.textContent ?? "";
      this.buf += text;
      return;
    }
    if (node.nodeType !== ELEMENT_NODE) return;
    const el = node as WElement;
    if (!isReadable(el) || this.skip.has(el)) return;
    if (this.actionable(el)) return;
    this.structure(el);
  }

  /** Writes headings, links, buttons, fields and clickable roles; false for anything else. */
  private actionable(el: WElement): boolean {
    const tag = el.tagName.toUpperCase();
    const sel = () => this.selectors.of(el);
    if (/^H[1-6]$/.test(tag)) {
      this.flush();
      const level = Number(tag[1]);
      const text = textOf(el);
      if (text)
        this.out.push(`${"#".repeat(level)} ${text}${level <= ANCHORED_HEADING_LEVEL ? ` {${sel()}}` : ""}`);
      return true;
    }
    if (tag === "A" && el.hasAttribute("href")) {
      const text = textOf(el) || el.getAttribute("aria-label") || el.getAttribute("title") || "";
      const img = text ? null : el.querySelector("img[alt]");
      const label = text || (img ? squash(img.getAttribute("alt")) : "");
      const href = el.getAttribute("href") ?? "";
      // A link without text (an icon) is named by where it goes: its target says nothing more.
      if (!label) {
        this.buf += ` [link: ${linkPlace(href, this.pageUrl)}] {${sel()}} `;
        return true;
      }
      const target = linkTarget(href, this.pageUrl);
      // The same link again (a teaser's picture and its headline, a menu shown twice) is left out;
      // another link to a target already written gives its label and selector only.
      const key = `${label}\n${target}`;
      if (this.links.has(key)) return true;
      this.buf += this.targets.has(target) ? ` [${label}] {${sel()}} ` : ` [${label}](${target}) {${sel()}} `;
      this.links.add(key);
      this.targets.add(target);
      return true;
    }
    if (
      tag === "BUTTON" ||
      (tag === "INPUT" && BUTTON_INPUTS.test(el.type ?? el.getAttribute("type") ?? ""))
    ) {
      const text =
        textOf(el) || squash(el.value) || el.getAttribute("aria-label") || el.getAttribute("title") || "";
      this.buf += ` [button: ${text}] {${sel()}} `;
      return true;
    }
    if (tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT") {
      const f = field(el, sel());
      if (f) {
        this.flush();
        this.out.push(f);
      }
      return true;
    }
    const role = el.getAttribute("role") ?? "";
    if (CLICKABLE_ROLES.test(role) || el.hasAttribute("onclick")) {
      this.buf += ` [${role || "clickable"}: ${textOf(el)}] {${sel()}} `;
      return true;
    }
    return false;
  }

  /** Writes images, breaks, rules, code, list items, table rows and blocks. */
  private structure(el: WElement): void {
    const tag = el.tagName.toUpperCase();
    if (tag === "IMG") {
      const alt = squash(el.getAttribute("alt"));
      const src = el.getAttribute("src") ?? "";
      // A data: URL is a placeholder (a lazy image not loaded yet) or inline bytes: no address to give.
      if (alt)
        this.buf +=
          src && !/^data:/i.test(src) ? ` ![${alt}](${linkTarget(src, this.pageUrl)}) ` : ` ![${alt}] `;
      return;
    }
    if (tag === "BR") {
      this.buf += "\n";
      return;
    }
    if (tag === "HR") {
      this.flush();
      this.out.push("---");
      return;
    }
    if (tag === "PRE") {
      this.flush();
      this.out.push(`\`\`\`\n${renderedText(el)}\n\`\`\``);
      return;
    }
    if (tag === "LI") {
      this.flush();
      const bullet = el.parentElement?.tagName.toUpperCase() === "OL" ? "1. " : "- ";
      this.out.push(bullet + this.inline(el));
      return;
    }
    if (tag === "TR") {
      this.flush();
      const cells = Array.from(el.children).map((c) => this.inline(c).replace(/\|/g, "\\|"));
      this.out.push(`| ${cells.join(" | ")} |`);
      return;
    }
    const block = BLOCK_TAGS.has(tag);
    if (block) this.flush();
    this.children(el);
    if (block) this.flush();
  }
}
