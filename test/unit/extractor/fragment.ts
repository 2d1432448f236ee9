import { parseHTML } from "linkedom";
import type { DomDocument, DomElement } from "../../../durable-objects/extractor/dom-types";

/** An HTML fragment after one extraction pass over its wrapper, as HTML. */
export function afterPass(html: string, pass: (root: DomElement) => void): string {
  const doc = parseHTML(`<html><body><div id="c">${html}</div></body></html>`)
    .document as unknown as DomDocument;
  const root = doc.querySelector("#c") as DomElement;
  pass(root);
  return (root as unknown as { innerHTML: string }).innerHTML;
}
