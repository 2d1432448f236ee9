/**
 * Microdata attributes written in camelCase by script renderers (`itemType`, `itemProp`), which
 * HTML reads case-insensitively but the parser does not.
 */

/** Microdata attribute names in any case other than lower (`itemType=`, `itemProp=`, `ITEMSCOPE`). */
const MICRODATA_NAME = /(\s)(item(?:type|prop|scope|id|ref))(?=[\s=>/])/gi;
/** The HTML with its microdata attribute names lower-cased, as a browser reads them (the text is scanned only when one is camelCase). */
export function lowerMicrodataNames(html: string): string {
  if (!html.includes("itemType") && !html.includes("itemProp")) return html;
  return html.replace(MICRODATA_NAME, (_, space: string, name: string) => space + name.toLowerCase());
}
