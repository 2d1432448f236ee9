/**
 * DOM building without HTML parsing: every string becomes a text node, so nothing from a
 * model, a tool or a page can turn into markup. No `innerHTML` anywhere in web/.
 */

/** A child of {@link h}: nodes, strings (as text) or nothing. */
export type Child = Node | string | null | undefined | false;

/** Creates an element with attributes (never `on*` handlers) and children. */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Record<string, string | boolean | undefined> = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === undefined || value === false || /^on/i.test(name)) continue;
    el.setAttribute(name, value === true ? "" : value);
  }
  append(el, ...children);
  return el;
}

/** Appends children, strings as text nodes. */
export function append(parent: Node, ...children: Child[]): void {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    parent.appendChild(typeof child === "string" ? document.createTextNode(child) : child);
  }
}

/** Removes every child of a node. */
export function clear(node: Node): void {
  while (node.firstChild) node.removeChild(node.firstChild);
}

/** An http(s) URL as a string, or null for anything else (javascript:, data:, relative…). */
export function safeHttpUrl(raw: string): string | null {
  try {
    const url = new URL(raw);
    return url.protocol === "https:" || url.protocol === "http:" ? url.href : null;
  } catch {
    return null;
  }
}

/** A link that opens in a new tab without giving the target page a handle on ours. */
export function externalLink(href: string, text: string): HTMLAnchorElement {
  return h("a", { href, target: "_blank", rel: "noopener noreferrer nofollow" }, text);
}
