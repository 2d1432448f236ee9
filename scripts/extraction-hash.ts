/**
 * One hash of the extractor's whole output (title, Markdown, metadata, description) over every page
 * of both sets: a refactor meant to change no behaviour must leave it identical. Prints the hash only
 * (no page is named). Run: `npm run eval:hash`.
 */
import { createHash } from "node:crypto";
import { dataDir, loadPages } from "../bench/article-set";
import { loadWcxb } from "../bench/wcxb-score";
import { extractMainContent } from "../durable-objects/extractor/extract";
import { decodeBody } from "../durable-objects/engine/net/charset";

const pages = [
  ...loadWcxb(process.env.WCXB_DATA ?? dataDir("wcxb-dev", import.meta.dirname)),
  ...loadPages(process.env.EXTRACTION_DATA ?? dataDir("article-extraction", import.meta.dirname)),
];
const hash = createHash("sha256");
for (const page of pages) {
  let out: unknown;
  try {
    out = extractMainContent(decodeBody(page.bytes, null, true), page.url);
  } catch (err) {
    out = `threw ${(err as Error).message}`;
  }
  hash.update(JSON.stringify(out));
}
console.log(`${pages.length} pages, output hash ${hash.digest("hex").slice(0, 16)}`);
