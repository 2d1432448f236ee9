import { describe, expect, it } from "vitest";
import { extractMainContent } from "../../../../durable-objects/engine/extract/extract";
import { isEncodedTwice, repairMojibake } from "../../../../durable-objects/engine/extract/mojibake";

/** UTF-8 text read as Latin-1 and stored again: what a CMS that got the charset wrong prints. */
const twice = (text: string) => String.fromCharCode(...new TextEncoder().encode(text));
/** The same through Windows-1252, whose bytes 0x80–0x9F are printable characters. */
const twice1252 = (text: string) => new TextDecoder("windows-1252").decode(new TextEncoder().encode(text));

const paragraphs = [
  "Pet insurance doesn’t have to be a wallet-buster — it’s affordable and you can tailor it to your budget.",
  "Cat owners pay less: from €11 to €90 a month, depending on breed, age and where you live.",
  "Getting a quote takes under two minutes, and you get your answer on the spot, no strings attached.",
];
const page = (body: string[]) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${twice("Pet insurance — what it costs")}</title><meta property="og:type" content="article"></head><body><article><h1>How much pet insurance costs</h1>${body.map((p) => `<p>${p}</p>`).join("")}</article></body></html>`;

describe("text encoded as UTF-8 twice", () => {
  it("reads a page whose text was stored as UTF-8 read as Latin-1 as the words it meant", () => {
    const { title, markdown, metadata } = extractMainContent(
      page(paragraphs.map(twice)),
      "https://pets.example/cost",
    );
    for (const p of paragraphs) expect(markdown).toContain(p);
    expect(markdown).not.toContain("â");
    expect(title).toBe("Pet insurance — what it costs");
    expect(metadata.title).toBe("Pet insurance — what it costs");
  });

  it("repairs the Windows-1252 form too (’ stored as â€™)", () => {
    expect(twice1252("doesn’t — it’s €11")).toBe("doesnâ€™t â€” itâ€™s â‚¬11");
    expect(repairMojibake(twice1252("doesn’t — it’s €11"))).toBe("doesn’t — it’s €11");
  });

  it("leaves text alone that holds one such pair or none (it may be meant)", () => {
    expect(isEncodedTwice("Ã© is how a broken é looks")).toBe(false);
    expect(isEncodedTwice("São Paulo, Zürich, Ærøskøbing — Ø and Å, ß«")).toBe(false);
    const { markdown } = extractMainContent(page(paragraphs), "https://pets.example/cost");
    for (const p of paragraphs) expect(markdown).toContain(p);
  });
});
