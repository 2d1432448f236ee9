// SCRATCH
import { measure, isChrome } from "./main-region";
import { SelectorMaker } from "./selectors";
export function debug(): unknown {
  const doc = (globalThis as any).document;
  const body = doc.body;
  const m = measure(body);
  const sel = new SelectorMaker(doc);
  const rows: any[] = [];
  for (const [el, prose] of m.prose) rows.push({ el, prose, text: m.text.get(el) ?? 0, score: prose - 0.25 * ((m.text.get(el) ?? 0) - prose) });
  rows.sort((a, b) => b.score - a.score);
  return rows.slice(0, 12).map((r) => ({ sel: sel.of(r.el, true), tag: r.el.tagName, cls: r.el.className, prose: r.prose, text: r.text, score: r.score, chrome: isChrome(r.el) }));
}
