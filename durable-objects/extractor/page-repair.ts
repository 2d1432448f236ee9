/**
 * Repairs of the parsed tree where linkedom and a browser disagree, so that no step loses the
 * page: markup the parser left outside `<body>`, a never-closed `<aside>` or `<nav>` that
 * swallowed the rest of the page, and markup nested deeper than a browser builds.
 */

import { foldText, linkTextLength, TEXT_NODE, textLength } from "./dom-text";
import type { DomDocument, DomElement, DomNode } from "./dom-types";

/** A junk-tag element holding at least this share of the page's text is a tag left open, not junk. */
export const UNCLOSED_SHARE = 0.5;

/** ... and holding less than this share of link text (a real menu, however long, is mostly links). */
export const UNCLOSED_MAX_LINK_DENSITY = 0.5;

/** Whether a junk-tag element is a tag left open: it holds most of the page, and not as links. */
function swallowsPage(el: DomElement, total: number): boolean {
  const length = textLength(el);
  if (total <= 0 || length < total * UNCLOSED_SHARE) return false;
  return linkTextLength(el) < length * UNCLOSED_MAX_LINK_DENSITY;
}

/** Moves elements the parser left beside `<body>` (between `<head>` and it, or after it) into it, as a browser does. */
export function repairBody(document: DomDocument): void {
  const root = document.documentElement;
  if (root?.tagName !== "HTML") return;
  const nodes = [...root.childNodes];
  const body = nodes.find((n) => n.nodeName === "BODY") as DomElement | undefined;
  if (!body) return;
  const moved = (n: DomNode) => n.nodeName !== "HEAD" && Boolean((n as DomElement).tagName);
  const before = nodes.slice(0, nodes.indexOf(body)).filter(moved);
  const after = nodes.slice(nodes.indexOf(body) + 1).filter(moved);
  if (before.length) body.prepend(...(before as DomElement[]));
  if (after.length) body.append(...(after as DomElement[]));
}

/** A browser builds no element deeper than this (Chromium's parser); real pages reach about 60. */
export const MAX_DEPTH = 512;
const BREAKS_TEXT = /^(P|DIV|LI|H[1-6]|TR|BR|BLOCKQUOTE|PRE|SECTION|ARTICLE|DD|DT)$/;

/**
 * Markup nested deeper than MAX_DEPTH (tags left open thousands of times) becomes paragraphs of
 * its text, split where its blocks were: a deeper tree costs every step a walk per level.
 */
export function flattenDeep(document: DomDocument): void {
  const stack: [DomElement, number][] = document.documentElement ? [[document.documentElement, 1]] : [];
  for (let top = stack.pop(); top; top = stack.pop()) {
    const [el, depth] = top;
    if (depth === MAX_DEPTH && el.firstElementChild) asParagraphs(el, document);
    else for (let c = el.firstElementChild; c; c = c.nextElementSibling) stack.push([c, depth + 1]);
  }
}

function asParagraphs(el: DomElement, document: DomDocument): void {
  const texts = [""];
  const stack: DomNode[] = [el];
  for (let node = stack.pop(); node; node = stack.pop()) {
    if (node.nodeType === TEXT_NODE) texts[texts.length - 1] += node.textContent ?? "";
    else if (BREAKS_TEXT.test(node.nodeName)) texts.push("");
    const children = [...node.childNodes];
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]);
  }
  el.textContent = "";
  for (const text of texts.map(foldText).filter(Boolean))
    el.append(Object.assign(document.createElement("p"), { textContent: text }));
}

/** The opening of a placeholder `<template>` of React's streamed rendering (`B:0` a boundary, `P:0` a segment; ids are hexadecimal, `B:1a`). */
const STREAM_PLACEHOLDER = /^<template\s+id="([BP]:[\da-f]+)"/i;

/** The comments that open (`<!--$?-->`, `<!--$-->`, `<!--$!-->`) and close (`<!--/$-->`) a streamed boundary. */
const BOUNDARY_OPEN = /^<!--\$[?!]?-->$/;
const BOUNDARY_CLOSE = "<!--/$-->";

/** What `stripRaw` keeps of a `<template>` or comment: the marks of streamed rendering (placeholders, boundary ends), or nothing. */
export function streamPlaceholder(block: string): string {
  if (block === BOUNDARY_CLOSE) return '<template id="/$"></template>';
  if (BOUNDARY_OPEN.test(block)) return '<template id="$"></template>';
  const id = STREAM_PLACEHOLDER.exec(block)?.[1];
  return id ? `<template id="${id}"></template>` : "";
}

/** Removes what a boundary shows until its content streams in (a spinner, a skeleton): the nodes after its placeholder up to its end. */
function removeFallback(slot: DomElement): void {
  let depth = 0;
  for (let n = slot.nextSibling; n; ) {
    const next = n.nextSibling;
    const id = (n as DomElement).tagName === "TEMPLATE" ? (n as DomElement).getAttribute("id") : null;
    if (id === "$") depth++;
    if (id === "/$" && depth-- === 0) return;
    (n as DomElement).remove();
    n = next;
  }
}

/**
 * Puts the segments that React's streamed rendering sends late, in `<div hidden id="S:n">` at the
 * end of the body, where its script would: in place of their placeholder `<template>` (or
 * unhidden where they are when it is gone). Without the script, the page's text looks hidden.
 */
export function placeStreamedSegments(document: DomDocument): void {
  for (const segment of [...document.querySelectorAll("div[hidden][id^='S:']")]) {
    const n = (segment.getAttribute("id") ?? "").slice(2);
    if (!/^[\da-f]+$/i.test(n)) continue;
    const slot =
      document.querySelector(`template[id='P:${n}']`) ?? document.querySelector(`template[id='B:${n}']`);
    if (slot) {
      if (slot.getAttribute("id")?.startsWith("B:")) removeFallback(slot);
      slot.replaceWith(...segment.childNodes);
      segment.remove();
    } else segment.removeAttribute("hidden");
  }
  for (const slot of [...document.querySelectorAll("template")]) slot.remove();
}

/** Elements that never hold content of their own. */
const VOID_TAG = /^(META|LINK|INPUT|EMBED|BR|IMG|SOURCE|WBR|HR|AREA|BASE|COL|TRACK|PARAM)$/;

/** Removes the junk-tag elements (in document order), except one holding most of the page, which is unwrapped (its tag was never closed). */
export function removeJunkTags(document: DomDocument, elements: DomElement[]): void {
  // Raw lengths first (no whitespace folding): only a large element needs the exact test. Void
  // elements hold nothing, and the body's length is read only once an element could hold text.
  let raw = -1;
  let total = -1;
  for (const el of elements) {
    const mayHoldText = !VOID_TAG.test(el.tagName);
    if (mayHoldText && raw < 0) raw = document.body?.textContent?.length ?? 0;
    if (mayHoldText && (el.textContent?.length ?? 0) >= raw * UNCLOSED_SHARE * 0.5) {
      if (total < 0) total = document.body ? textLength(document.body) : 0;
      if (swallowsPage(el, total)) {
        el.replaceWith(...el.childNodes);
        continue;
      }
    }
    el.remove();
  }
}
