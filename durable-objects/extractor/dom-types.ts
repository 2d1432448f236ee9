/**
 * The small part of the DOM the extractor uses, typed structurally: the project compiles
 * without the DOM lib (it targets workerd), and linkedom's documents satisfy these shapes.
 */

/** A DOM node as linkedom provides it. */
export interface DomNode {
  nodeName: string;
  nodeType: number;
  childNodes: Iterable<DomNode>;
  firstChild: DomNode | null;
  textContent: string | null;
  parentNode: DomNode | null;
  previousSibling: DomNode | null;
  nextSibling: DomNode | null;
}

/** A DOM element as linkedom provides it. */
export interface DomElement extends DomNode {
  tagName: string;
  localName: string;
  isConnected: boolean;
  firstElementChild: DomElement | null;
  lastElementChild: DomElement | null;
  children: ArrayLike<DomElement>;
  previousElementSibling: DomElement | null;
  nextElementSibling: DomElement | null;
  parentElement: DomElement | null;
  getAttribute(name: string): string | null;
  setAttribute(name: string, value: string): void;
  removeAttribute(name: string): void;
  hasAttribute(name: string): boolean;
  hasAttributes(): boolean;
  matches(selector: string): boolean;
  querySelector(selector: string): DomElement | null;
  closest(selector: string): DomElement | null;
  contains(node: DomNode): boolean;
  querySelectorAll(selector: string): Iterable<DomElement> & { length: number };
  remove(): void;
  cloneNode(deep: boolean): DomElement;
  prepend(...nodes: DomElement[]): void;
  append(...nodes: DomElement[]): void;
  replaceWith(...nodes: DomNode[]): void;
}

/** A parsed document as linkedom provides it. */
export interface DomDocument {
  documentElement: DomElement | null;
  head: DomElement | null;
  body: DomElement | null;
  querySelector(selector: string): DomElement | null;
  querySelectorAll(selector: string): Iterable<DomElement> & { length: number };
  createElement(tag: string): DomElement;
}
