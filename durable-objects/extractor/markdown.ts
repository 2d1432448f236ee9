/** HTML → Markdown with turndown on a linkedom node (turndown cannot parse strings in workerd). */
import TurndownService from "turndown";
import { fencedCode } from "./code-blocks";
import { someAncestor } from "./dom-shape";
import { lowerWords } from "./dom-text";
import type { DomElement, DomNode } from "./dom-types";
import { passOn } from "./passes";

const service = new TurndownService({
  headingStyle: "atx",
  codeBlockStyle: "fenced",
  bulletListMarker: "-",
  emDelimiter: "*",
  strongDelimiter: "**",
  linkStyle: "inlined",
});

service.remove("script style noscript template iframe object embed svg canvas".split(" ") as never);
// Images are left out: the reader is a language model, and alt texts and captions are noise to it.
service.addRule("image", { filter: "img", replacement: () => "" });
/** The number an item's text opens with (`7`, `**7.**`, `Step 7` is not one), or "". */
const ownNumber = (body: string) => /^[*_]*(\d+)(?![\d,.]\d)/.exec(body)?.[1] ?? "";

service.addRule("listItem", {
  filter: "li",
  replacement: (content, node) => {
    const el = node as unknown as DomElement;
    const parent = el.parentNode as DomElement | null;
    let prefix = "- ";
    if (parent?.nodeName === "OL") {
      const start = Number(parent.getAttribute("start") ?? "1");
      // The item's place among the list's items (a sibling count: a `:scope` query per item is quadratic).
      let index = 0;
      for (let s = el.previousElementSibling; s; s = s.previousElementSibling)
        if (s.tagName === "LI") index++;
      prefix = `${(Number.isFinite(start) ? start : 1) + index}. `;
    }
    let body = content.replace(/^\n+/, "").replace(/\n+$/, "\n");
    // An item that prints its own number (a step's `<div class="num">7</div>`) needs no list number.
    if (prefix !== "- " && ownNumber(body) === prefix.slice(0, -2)) prefix = "- ";
    body = body.replace(/\n(?!$)/g, `\n${" ".repeat(prefix.length)}`);
    return prefix + body + (el.nextSibling && !body.endsWith("\n") ? "\n" : "");
  },
});
/** Tables laid out for the page, holding no data (a presentation, one holding a table, a single row or column). */
const layoutTables = new WeakMap<DomElement, boolean>();
const isLayout = (table: DomElement, rows = [...table.querySelectorAll("tr")]) =>
  /^(presentation|none)$/.test(table.getAttribute("role") ?? "") ||
  table.querySelector("table") !== null ||
  rows.length < 2 ||
  rows.every((row) => row.querySelectorAll("td, th").length < 2);
/** Whether a cell or row is read as blocks: its table is laid out, or was left behind (no data table either). */
function inLayout(node: unknown): boolean {
  if (!passOn("layout-tables")) return false;
  const table = (node as DomElement).closest("table");
  if (table && !layoutTables.has(table)) layoutTables.set(table, isLayout(table));
  return !table || layoutTables.get(table) === true;
}

service.addRule("tableCell", {
  filter: ["th", "td"],
  replacement: (content, node) => {
    if (inLayout(node)) return `\n\n${content}\n\n`;
    const cell = content.replace(/\n+/g, " ").replace(/\|/g, "\\|").trim();
    return `${node.previousSibling ? "" : "| "}${cell} | `;
  },
});
service.addRule("tableRow", {
  filter: "tr",
  replacement: (content, node) => {
    if (inLayout(node)) return content;
    const row = `${content.trimEnd()}\n`;
    const el = node as unknown as DomElement;
    const isHead =
      el.parentNode?.nodeName === "THEAD" || (!el.previousElementSibling && el.querySelector("th") !== null);
    return isHead ? `${row}|${" --- |".repeat(el.querySelectorAll("th, td").length)}\n` : row;
  },
});
service.addRule("table", { filter: "table", replacement: (content) => `\n\n${content.trim()}\n\n` });
service.addRule("tableSection", { filter: ["thead", "tbody", "tfoot"], replacement: (content) => content });

/** Blocks that emphasis cannot hold in Markdown (a bold `<b>` around paragraphs prints bare lines of `**`). */
const BLOCKS = "p, div, li, ul, ol, table, blockquote, pre, section, article, h1, h2, h3, h4, h5, h6";
const kindOf = (node: DomNode | null) =>
  /^(B|STRONG)$/.test(node?.nodeName ?? "") ? "**" : /^(I|EM)$/.test(node?.nodeName ?? "") ? "*" : "";
const markedRuns = new WeakMap<DomElement, boolean>();
/** Whether an emphasis element prints its marks (asked of it, its siblings and its nested runs: measured once). */
function marked(el: DomElement | null): boolean {
  if (!el || !kindOf(el)) return false;
  if (!markedRuns.has(el)) markedRuns.set(el, Boolean(el.textContent?.trim() && !el.querySelector(BLOCKS)));
  return markedRuns.get(el) === true;
}
/** Whether an emphasis ancestor of the same kind prints its marks already (emphasis nested in itself prints once). */
const insideMarked = (el: DomElement, mark: string) =>
  someAncestor(el.parentElement, null, (up) => kindOf(up) === mark && marked(up));
/** Whether two emphasis runs side by side read as one (`**a****b**` is `**ab**`): same kind, touching, no break. */
const joined = (a: DomNode | null, b: DomNode | null): boolean =>
  kindOf(a) !== "" &&
  kindOf(a) === kindOf(b) &&
  [a, b].every((el) => marked(el as DomElement) && !(el as DomElement).querySelector("br")) &&
  !/\s$/.test(a?.textContent ?? "") &&
  !/^\s/.test(b?.textContent ?? "");
// Emphasis prints its marks once, however deep the page nests it, outside the line breaks it holds.
service.addRule("emphasis", {
  filter: ["b", "strong", "i", "em"],
  replacement: (content, node) => {
    const el = node as unknown as DomElement;
    const mark = kindOf(el);
    if (!content.trim()) return "";
    if (!passOn("emphasis")) return mark + content + mark;
    if (!marked(el) || insideMarked(el, mark)) return content;
    const [, lead, body, tail] = /^(\s*)([\s\S]*?)(\s*)$/.exec(content) ?? ["", "", content, ""];
    const open = joined(el.previousSibling, el) ? "" : mark;
    return `${lead}${open}${body}${joined(el, el.nextSibling) ? "" : mark}${tail}`;
  },
});

// A link's title attribute is a tooltip, not text the page shows: links print their label and target only.
service.addRule("inlineLink", {
  filter: (node) => node.nodeName === "A" && Boolean((node as unknown as DomElement).getAttribute("href")),
  replacement: (content, node) => {
    const href = ((node as unknown as DomElement).getAttribute("href") ?? "").replace(/([<>()])/g, "\\$1");
    return `[${content}](${href.includes(" ") ? `<${href}>` : href})`;
  },
});

// Every <pre> is a fenced block with its lines, whatever markup the highlighter printed inside it.
service.addRule("codeBlock", {
  filter: "pre",
  replacement: (_content, node) => fencedCode(node as unknown as DomElement),
});

// Text is not escaped: the reader is a model, and `\_` or `\*` in prose only get in its way.
service.escape = (text: string) => text;

/** Whether a Markdown line opens or closes a fenced code block (what is inside is the code's). */
export const isCodeFence = (line: string) => /^\s*(```|~~~)/.test(line);

/** A Markdown text's words, lower-cased, link targets and Markdown marks left out: what makes two lines or blocks the same text. */
export const markdownWords = (markdown: string) => lowerWords(markdown.replace(/\]\([^)]*\)/g, "]"));

/** How many words a `markdownWords` key holds (1 for ""), counted without splitting it. */
export function keyWords(key: string): number {
  let words = 1;
  for (let i = key.indexOf(" "); i !== -1; i = key.indexOf(" ", i + 1)) words++;
  return words;
}

/**
 * Converts an element (a linkedom node) to Markdown. Turndown first copies the node, since its
 * whitespace pass changes the tree; `inPlace` hands it the node itself (the caller's last use of it).
 */
export function toMarkdown(node: DomNode, inPlace = false): string {
  const input = inPlace ? { nodeType: node.nodeType, cloneNode: () => node } : node;
  const markdown = service.turndown(input as never);
  return markdown.replace(/\n{3,}/g, "\n\n").trim();
}
