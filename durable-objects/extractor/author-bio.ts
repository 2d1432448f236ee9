/**
 * An author's box after a story: a short paragraph about the person who wrote it ("Jane Roe is a
 * freelance writer who covers ..."). It is known by the page's own statement of its author
 * (metadata, not words of ours): a short paragraph that opens with that name, in the last part of
 * the content, with the box around it when the box holds little else (their name, a photo).
 */
import { widenWhile } from "./dom-shape";
import { foldText, textLength, textOf } from "./dom-text";
import type { DomElement } from "./dom-types";

/** A bio is at most this long (a few sentences). */
export const MAX_BIO_CHARS = 700;
/** A stated author's name has two to this many words (a person's, not a newsroom's). */
const MAX_NAME_WORDS = 4;
/** A bio starts in the last this share of the content's text. */
export const TAIL_SHARE = 0.25;
/** The box around a bio holds at most this many times its text. */
export const BOX_OVER_BIO = 1.6;

/** The largest block around the bio `p` under `root` that holds little else. */
function boxOf(p: DomElement, root: DomElement): DomElement {
  const length = textLength(p);
  return widenWhile(p, root, (up) => textLength(up) <= length * BOX_OVER_BIO);
}

/** Removes the author's bio (and its box) after the story in `root`, when the page states its author. */
export function removeAuthorBio(root: DomElement, author: string | undefined): void {
  const name = foldText(author ?? "").toLowerCase();
  const words = name.split(" ").length;
  if (words < 2 || words > MAX_NAME_WORDS) return;
  const bios = [...root.querySelectorAll("p")].filter((p) => {
    const text = textOf(p);
    return text.length <= MAX_BIO_CHARS && text.toLowerCase().startsWith(`${name} `);
  });
  if (!bios.length) return;
  const all = root.textContent ?? "";
  const tail = all.length * (1 - TAIL_SHARE);
  const doomed = bios.filter((p) => all.lastIndexOf(p.textContent ?? "") >= tail).map((p) => boxOf(p, root));
  for (const el of doomed) el.remove();
}
