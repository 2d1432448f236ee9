/**
 * A forum prints under an edited post who edited it and when ("Last edited by X; Feb 17, 2026",
 * "Edited January 29 by X (see edit history)", "This post was last modified: ... by X"): a note of the
 * forum's, not of the poster's text, and one per edit in a long thread.
 */

import { widenWhile } from "./dom-shape";
import { shortText } from "./dom-text";
import type { DomElement } from "./dom-types";
import { EDIT_NOTE } from "./vocabulary/page-words";

/** An edit note is at most this long (a name, a date and a count of edits). */
export const MAX_EDIT_NOTE_CHARS = 160;
/** Tags an edit note is printed in (a block of its own, or an inline line of small print). */
const NOTE_TAGS = "p, div, span, em, i, small, dd";

/** Removes each post's edit notes (EDIT_NOTE, at most MAX_EDIT_NOTE_CHARS), with a wrapper holding nothing else. */
export function removeEditNotes(posts: DomElement[]): void {
  for (const post of posts)
    for (const el of post.querySelectorAll(NOTE_TAGS)) {
      if (!el.isConnected) continue;
      const text = shortText(el, MAX_EDIT_NOTE_CHARS);
      if (!text || !EDIT_NOTE.test(text)) continue;
      widenWhile(el, post, (up) => shortText(up, text.length) === text).remove();
    }
}
