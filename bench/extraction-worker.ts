/**
 * The bench's Worker: runs our extractor or plain Readability.js on one page, timed inside workerd.
 * `readability` runs the published Readability.js 0.6.0 on linkedom as we install it (patches/
 * makes it faster, same output); `readability-stock` runs it on the published linkedom 0.18.15.
 */
import { parseHTML } from "linkedom";
import { parseHTML as parseStockHTML } from "linkedom-stock";
import { Readability } from "readability-stock";
import { extractMainContent } from "../durable-objects/extractor/extract";
import { decodeBody } from "../durable-objects/engine/net/charset";

type Extractor = (html: string, url: string) => string;

const EXTRACTORS: Record<string, Extractor> = {
  ours: (html, url) => extractMainContent(html, url).markdown,
  readability: (html) => {
    const { document } = parseHTML(html);
    return new Readability(document).parse()?.textContent ?? "";
  },
  "readability-stock": (html) => {
    const { document } = parseStockHTML(html);
    return new Readability(document).parse()?.textContent ?? "";
  },
};

/** Decodes the page once, then times `repeat` extractions and reports the mean in milliseconds. */
export default {
  async fetch(request: Request): Promise<Response> {
    const params = new URL(request.url).searchParams;
    const extract = EXTRACTORS[params.get("which") ?? ""];
    if (!extract) return new Response("unknown extractor", { status: 400 });
    const repeat = Math.max(1, Number(params.get("repeat") ?? "1"));
    const html = decodeBody(new Uint8Array(await request.arrayBuffer()), null, true);
    const url = params.get("url") ?? "https://example.com/";
    let text = "";
    const start = performance.now();
    try {
      for (let i = 0; i < repeat; i++) text = extract(html, url);
    } catch (err) {
      return Response.json({ text: "", ms: performance.now() - start, error: String(err) });
    }
    const ms = (performance.now() - start) / repeat;
    return Response.json({ text, ms });
  },
} satisfies ExportedHandler;
