import { describe, expect, it } from "vitest";
import { extractMainContent } from "../../../durable-objects/extractor/extract";
import { dropNearRepeatedLines } from "../../../durable-objects/extractor/near-repeats";

const productLd = `<script type="application/ld+json">{"@type":"Product","name":"Trail Kettle","offers":{"@type":"Offer","price":"40"}}</script>`;
const lead =
  "A one-litre kettle of brushed steel that boils on a camp stove in four minutes and packs flat into a side pocket.";
const spout =
  "The spout pours without dripping, the lid stays on when the kettle is tipped, and the base spreads the heat of a small flame.";

describe("near repeats on product pages", () => {
  it("reads a description printed again in a details tab, a word changed, once", () => {
    const html = `<!doctype html><html><head><title>Trail Kettle</title>${productLd}</head><body><main>
      <h1>Trail Kettle</h1><p>$40.00</p><p>${lead}</p><p>${spout}</p>
      <h2>Details</h2><p>${lead.replace("pocket.", "pouch.")}</p><p>Capacity: one litre. Weight: 310 grams.</p>
      </main></body></html>`;
    const { markdown } = extractMainContent(html, "https://shop.example/kettle");
    expect(markdown.match(/packs flat into a side pocket/g)).toHaveLength(1);
    expect(markdown).not.toContain("side pouch");
    expect(markdown).toContain("Weight: 310 grams");
  });

  it("drops a line repeating an earlier one but for a lead-in, keeping short lines, tables, code and new text", () => {
    const markdown = [
      "- Purchase with purpose! Repair makes a global impact, reduces e-waste, and saves you money.",
      "",
      "Repair makes a global impact, reduces e-waste, and saves you money.",
      "",
      "| Size | One size fits all the kettles in the range we make |",
      "| Size | One size fits all the kettles in the range we make! |",
      "",
      "Same day shipping",
      "Same day shipping!",
      "",
      spout,
      spout.replace("small flame", "large flame, and a handle stays cool in the hand"),
    ].join("\n");
    expect(dropNearRepeatedLines(markdown)).toBe(
      markdown.replace("Repair makes a global impact, reduces e-waste, and saves you money.\n\n", ""),
    );
  });

  it("keeps two lines that share an opening but say different things", () => {
    const markdown = `${lead}\n\nA one-litre kettle of brushed steel with a wooden handle, sold with a cup and a cloth bag for the trail.`;
    expect(dropNearRepeatedLines(markdown)).toBe(markdown);
  });

  it("keeps lines that differ only in a number: items of a series, not copies", () => {
    const markdown = [1, 2, 3]
      .map(
        (n) =>
          `Step ${n}: unscrew the base plate, lift the kettle body away and wipe the element with a dry cloth.`,
      )
      .join("\n");
    expect(dropNearRepeatedLines(markdown)).toBe(markdown);
  });
});
