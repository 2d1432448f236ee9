/**
 * A small, safe Markdown renderer: paragraphs, headings, lists, quotes, code, emphasis and
 * http(s) links, built as DOM nodes with text content only. Anything else stays literal text.
 */
import { type Child, externalLink, h, safeHttpUrl } from "./dom";

const FENCE = /^\s*```/;
const HEADING = /^(#{1,6})\s+(.*)$/;
const BULLET = /^\s*[-*+]\s+(.*)$/;
const ORDERED = /^\s*\d{1,9}[.)]\s+(.*)$/;
const QUOTE = /^\s*>\s?(.*)$/;
/** Inline tokens: `code`, **bold**, *em*, [text](url), bare http(s) URLs (no `_`: paths keep theirs). */
const INLINE =
  /(`[^`\n]+`)|(\*\*[^*\n]+\*\*)|(\*[^*\s][^*\n]*\*)|(\[[^\]\n]+\]\([^)\s]+\))|(https?:\/\/[^\s<>()"']+[^\s<>()"'.,;:!?])/;

/** Renders inline Markdown into nodes. */
export function renderInline(text: string): Child[] {
  const out: Child[] = [];
  let rest = text;
  for (let m = INLINE.exec(rest); m; m = INLINE.exec(rest)) {
    if (m.index > 0) out.push(rest.slice(0, m.index));
    const [tok] = m;
    if (m[1]) out.push(h("code", {}, tok.slice(1, -1)));
    else if (m[2]) out.push(h("strong", {}, ...renderInline(tok.slice(2, -2))));
    else if (m[3]) out.push(h("em", {}, ...renderInline(tok.slice(1, -1))));
    else if (m[4]) out.push(link(tok));
    else out.push(safeHttpUrl(tok) ? externalLink(tok, tok) : tok);
    rest = rest.slice(m.index + tok.length);
  }
  if (rest) out.push(rest);
  return out;
}

function link(tok: string): Child {
  const close = tok.indexOf("](");
  const label = tok.slice(1, close);
  const href = safeHttpUrl(tok.slice(close + 2, -1));
  if (!href) return tok;
  const a = externalLink(href, "");
  a.append(...(renderInline(label).filter(Boolean) as (Node | string)[]));
  return a;
}

/** Renders a Markdown document into a fragment of safe nodes. */
export function renderMarkdown(src: string): DocumentFragment {
  const frag = document.createDocumentFragment();
  const lines = src.replace(/\r\n?/g, "\n").split("\n");
  let i = 0;
  while (i < lines.length) {
    const line = lines[i];
    if (!line.trim()) {
      i++;
      continue;
    }
    if (FENCE.test(line)) {
      const code: string[] = [];
      for (i++; i < lines.length && !FENCE.test(lines[i]); i++) code.push(lines[i]);
      i++;
      frag.append(h("pre", {}, h("code", {}, code.join("\n"))));
      continue;
    }
    const heading = HEADING.exec(line);
    if (heading) {
      const level = Math.min(6, heading[1].length + 2);
      frag.append(h(`h${level}` as "h3", {}, ...renderInline(heading[2])));
      i++;
      continue;
    }
    i = block(lines, i, frag);
  }
  return frag;
}

/** Renders a list, quote or paragraph starting at `i`; returns the next line index. */
function block(lines: string[], i: number, frag: DocumentFragment): number {
  for (const [re, tag] of [
    [BULLET, "ul"],
    [ORDERED, "ol"],
  ] as const) {
    if (!re.test(lines[i])) continue;
    const list = h(tag);
    for (; i < lines.length && re.test(lines[i]); i++)
      list.append(h("li", {}, ...renderInline(re.exec(lines[i])?.[1] ?? "")));
    frag.append(list);
    return i;
  }
  if (QUOTE.test(lines[i])) {
    const quoted: string[] = [];
    for (; i < lines.length && QUOTE.test(lines[i]); i++) quoted.push(QUOTE.exec(lines[i])?.[1] ?? "");
    frag.append(h("blockquote", {}, renderMarkdown(quoted.join("\n"))));
    return i;
  }
  const para: string[] = [];
  for (; i < lines.length && lines[i].trim() && !startsBlock(lines[i]); i++) para.push(lines[i].trim());
  const p = h("p");
  para.forEach((text, n) => {
    if (n > 0) p.append(h("br"));
    p.append(...(renderInline(text).filter(Boolean) as (Node | string)[]));
  });
  frag.append(p);
  return i;
}

function startsBlock(line: string): boolean {
  return (
    FENCE.test(line) || HEADING.test(line) || BULLET.test(line) || ORDERED.test(line) || QUOTE.test(line)
  );
}
