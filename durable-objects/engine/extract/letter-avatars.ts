/**
 * Letter avatars: a poster with no picture is drawn as their initials in a coloured disc, a block
 * whose class names an avatar (`avatar avatar--default`, `Avatar`, `avatar-u781584-s`). Forums
 * (XenForo, Flarum, NodeBB) and comment widgets print one beside every post; as text it is a stray
 * letter on a line of its own, which no reader takes for a word of the thread.
 */
import { textOf } from "./dom-text";
import type { DomElement } from "./dom-types";

/** A class naming an avatar (a substring: `avatar--s`, `userAvatar`, `Avatar`). */
export const AVATAR_CLASS = /avatar/i;
/**
 * An avatar's initials: one or two letters. A "?" (a guest, a list still loading) is left alone:
 * it marks a placeholder block that other passes read as a whole.
 */
const INITIALS = /^\p{L}{1,2}$/u;

/** Empties the letter avatars among the elements whose class names an avatar (the block stays, so the post's layout reads as before). */
export function removeLetterAvatars(avatars: DomElement[]): void {
  for (const el of avatars) if (el.isConnected && INITIALS.test(textOf(el))) el.textContent = "";
}
