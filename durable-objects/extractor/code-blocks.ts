/**
 * Code blocks as a reader sees them. Highlighters print a code sample in many shapes: `<pre>`
 * opening with an empty span before its `<code>`, one `<div>` per line (editors), lines ended by
 * `<br>`, token spans whose class words (`comment`, `tag`) read like page chrome. The sample is
 * one fenced block whatever the shape, its lines kept, and its tokens never taken for junk.
 */
import { ELEMENT_NODE, TEXT_NODE } from "./dom-text";
import { someAncestor } from "./dom-shape";
import type { DomElement, DomNode } from "./dom-types";

/** Elements that end a line of code when a highlighter prints one element per line. */
const LINE_BLOCK = /^(DIV|P|LI|TR)$/;
/** A class token of a highlighter's line wrapper (`line`, `cm-line`, `code-line`), often a span shown as a block. */
const LINE_CLASS = /(?:^|\s)(?:[\w-]*-)?line(?:\s|$)/;
/** The language a highlighter names in a class (`language-yaml`, `lang-js`). */
const LANGUAGE_CLASS = /(?:^|\s)(?:language|lang)-([\w+#.-]+)/;

const isLine = (el: DomElement) =>
  LINE_BLOCK.test(el.nodeName) || LINE_CLASS.test(el.getAttribute("class") ?? "");

/** The text of a code block with its line breaks: `<br>` and one-element-per-line markup become newlines. */
export function codeText(pre: DomElement): string {
  let text = "";
  const walk = (node: DomNode) => {
    for (const n of node.childNodes) {
      if (n.nodeType === TEXT_NODE) text += n.textContent ?? "";
      else if (n.nodeType !== ELEMENT_NODE) continue;
      else if (n.nodeName === "BR") text += "\n";
      else if (!isLine(n as DomElement)) walk(n);
      else {
        // A block starts a line and ends one, as a browser lays it out.
        if (text && !text.endsWith("\n")) text += "\n";
        walk(n);
        if (!text.endsWith("\n")) text += "\n";
      }
    }
  };
  walk(pre);
  return text;
}

/** The language a code block names, from its `<code>` element's class (or its own), or "". */
function languageOf(pre: DomElement): string {
  const code = pre.querySelector("code");
  return (LANGUAGE_CLASS.exec(code?.getAttribute("class") ?? "") ?? [])[1] ?? "";
}

/** A `<pre>` as a fenced Markdown block (a fence longer than any run of backticks inside it). */
export function fencedCode(pre: DomElement): string {
  const code = codeText(pre).replace(/^\n+|\s+$/g, "");
  if (!code) return "";
  let size = 3;
  for (const run of code.match(/^`{3,}/gm) ?? []) size = Math.max(size, run.length + 1);
  const fence = "`".repeat(size);
  return `\n\n${fence}${languageOf(pre)}\n${code}\n${fence}\n\n`;
}

/** Whether the element sits in a code sample (its class words name tokens, not page blocks). */
export const inCode = (el: DomElement) =>
  someAncestor(el, null, (n) => n.tagName === "PRE" || n.tagName === "CODE");
