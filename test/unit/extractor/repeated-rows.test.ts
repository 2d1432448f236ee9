import { describe, expect, it } from "vitest";
import { extractMainContent } from "../../../durable-objects/extractor/extract";
import { dropRepeatedRows } from "../../../durable-objects/extractor/repeated-rows";

const productLd = `<script type="application/ld+json">{"@type":"Product","name":"Trail Kettle","offers":{"@type":"Offer","price":"40"}}</script>`;
const rows = (pairs: string[][]) => pairs.map(([k, v]) => `<tr><th>${k}</th><td>${v}</td></tr>`).join("");

describe("spec rows printed in two tables", () => {
  it("reads a key-specs row again in the full spec sheet once", () => {
    const key = [
      ["Capacity", "one litre of water"],
      ["Weight", "310 grams empty"],
    ];
    const full = [...key, ["Material", "brushed stainless steel"]];
    const html = `<!doctype html><html><head><title>Trail Kettle</title>${productLd}</head><body><main>
      <h1>Trail Kettle</h1><p>A one-litre kettle of brushed steel that boils on a camp stove in four minutes and packs flat.</p>
      <h2>Key specs</h2><table>${rows(key)}</table>
      <h2>Full specifications</h2><table>${rows(full)}</table>
      </main></body></html>`;
    const { markdown } = extractMainContent(html, "https://shop.example/kettle");
    expect(markdown.match(/310 grams empty/g)).toHaveLength(1);
    expect(markdown).toContain("brushed stainless steel");
  });

  it("keeps rows repeated inside one table, short rows, and drops a table left with no row", () => {
    const first =
      "| Size | Chest | Length |\n| --- | --- | --- |\n| S | 36 in | 28 in |\n| M | 36 in | 28 in |";
    const second = "| Spec | Value |\n| --- | --- |\n| S | 36 in | 28 in |\n| Color | Black |";
    const third = "| Spec | Value |\n| --- | --- |\n| M | 36 in | 28 in |";
    expect(dropRepeatedRows(`${first}\n\n${second}\n\n${third}\n\nThe end.`)).toBe(
      `${first}\n\n| Spec | Value |\n| --- | --- |\n| Color | Black |\n\nThe end.`,
    );
  });
});
