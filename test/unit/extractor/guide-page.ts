/** Parts of a hand-written how-to article: numbered paragraphs, their text, and a head saying "article". */
export function guidePage(title: string, step: string, things: string) {
  const line = (n: number) =>
    `Paragraph ${n} of the guide explains one more step of ${step}, with ${things} it needs.`;
  const para = (n: number) => `<p>${line(n)}</p>`;
  const paras = (...ns: number[]) => ns.map(para).join("");
  const head = `<head><title>${title}</title><meta property="og:type" content="article"></head>`;
  return { line, para, paras, head };
}
