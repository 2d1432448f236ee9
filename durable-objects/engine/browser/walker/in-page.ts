/**
 * The walker's entry inside the page (bundled into a string by scripts/build-walker.ts):
 * `cirrusWalker.read(selector)` reads the page's document.
 */
import type { WDocument } from "./dom";
import { type PageReading, readPage } from "./read-page";

/** Reads the page this script runs in. */
export function read(selector: string | null): PageReading {
  const page = globalThis as unknown as { document: WDocument; location: { href: string } };
  return readPage(page.document, page.location.href, selector);
}
