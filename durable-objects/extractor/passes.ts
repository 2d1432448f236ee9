/**
 * Every pass and rule of the extractor, by name, in pipeline order. Each can be switched off by name
 * (`withPassesOff`), so the evals measure what each is worth on pages it was not tuned on (the
 * ablation table in bench/extraction.md). The service always runs them all.
 */

/** The passes, in the order the pipeline runs them, each with the stage it belongs to. */
export const PASSES = {
  // Page: what no reader sees, before anything reads the page.
  "folded-panels": "page",
  "consent-managers": "page",
  "chrome-first": "page",
  // Boilerplate: widgets of the page's kind, a thread's controls.
  "kind-widgets": "boilerplate",
  "post-controls": "boilerplate",
  "qa-comments": "boilerplate",
  "edit-notes": "boilerplate",
  // Readability's reading of the page; the headline is the page's h1 its declared titles name.
  "headings-by-tag": "read",
  headline: "read",
  // Choosing between Readability's article and the page's region.
  "section-run": "select",
  "thread-opening": "select",
  "choose-region": "select",
  "choose-article": "select",
  // Cleaning Readability's article.
  "article-junk": "clean",
  "link-lists": "clean",
  // Cleaning the chosen content, whichever it is.
  "card-controls": "clean",
  "product-cards": "clean",
  "repeated-link-labels": "clean",
  "thread-edges": "clean",
  "story-rails": "clean",
  "other-products": "clean",
  "signup-boxes": "clean",
  "glued-items": "clean",
  "author-bio": "clean",
  "idle-links": "clean",
  // Markdown: tables the page is laid out with are read as blocks; then lines and blocks.
  "layout-tables": "markdown",
  emphasis: "markdown",
  "repeated-quotes": "markdown",
  "trailing-links": "markdown",
  "product-repeats": "markdown",
  "control-labels": "markdown",
} as const;

/** The name of one pass. */
export type PassName = keyof typeof PASSES;

let off: ReadonlySet<string> = new Set();
let asked: Set<string> | null = null;

/** Whether a pass runs (all do, unless an eval switched it off). */
export function passOn(name: PassName): boolean {
  asked?.add(name);
  return !off.has(name);
}

/**
 * Runs `run` with the named passes switched off (evals and tests); an unknown name throws. `seen`
 * collects the passes the page reached (a pass never reached cannot change the page's output).
 */
export function withPassesOff<T>(names: Iterable<string>, run: () => T, seen?: Set<string>): T {
  const list = [...names];
  const unknown = list.filter((n) => !(n in PASSES));
  if (unknown.length) throw new Error(`unknown extractor pass: ${unknown.join(", ")}`);
  const before = [off, asked] as const;
  [off, asked] = [new Set(list), seen ?? null];
  try {
    return run();
  } finally {
    [off, asked] = before;
  }
}
