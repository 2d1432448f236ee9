/**
 * Scripts Cirrus runs in a tab: get_tab_content's reader (the typed walker in ./walker/, bundled
 * into a string at build time), list_tabs' facts and the local-storage save and restore.
 * The reader runs in an isolated world, so the page's own scripts cannot interfere with it.
 */

import { WALKER_BUNDLE } from "./walker/bundled.js";
import type { PageReading } from "./walker/read-page";

export type { PageReading };

/** Builds the expression that reads the page (or the part matching `selector`); it leaves no globals. */
export function readPageScript(selector: string | undefined): string {
  return `(() => {\n${WALKER_BUNDLE}\nreturn cirrusWalker.read(${JSON.stringify(selector ?? null)});\n})()`;
}

/** Reads the facts list_tabs shows that only the page knows. */
export const TAB_FACTS_SCRIPT = `({
  title: document.title,
  loading: document.readyState !== "complete",
  audible: Array.from(document.querySelectorAll("audio, video")).some(
    (m) => !m.paused && !m.ended && !m.muted && m.volume > 0),
})`;

/** Reads the page's local storage entries for saving, and which document it is (its time origin). */
export const READ_STORAGE_SCRIPT = `(() => {
  const document = performance.timeOrigin;
  try {
    const out = [];
    for (let i = 0; i < localStorage.length; i++) {
      const k = localStorage.key(i);
      out.push([k, localStorage.getItem(k)]);
    }
    return { origin: location.origin, entries: out, document };
  } catch (e) { return { origin: location.origin, entries: null, document }; }
})()`;

/** Which document a page shows (its time origin: a new one per navigation) and whether it has loaded. */
export const DOCUMENT_STATE_SCRIPT = `({ document: performance.timeOrigin, loaded: document.readyState === "complete" })`;

/** A script that, on the first document of a matching origin, writes saved local storage back. */
export function restoreStorageScript(storage: Record<string, [string, string][]>): string {
  return `(() => {
  const saved = ${JSON.stringify(storage)}[location.origin];
  if (!saved) return;
  try { for (const [k, v] of saved) if (localStorage.getItem(k) === null) localStorage.setItem(k, v); } catch (e) {}
})()`;
}
