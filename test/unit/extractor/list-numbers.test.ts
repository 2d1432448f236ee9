import { describe, expect, it } from "vitest";
import { toMarkdown } from "../../../durable-objects/extractor/markdown";
import { parsePage } from "../../../durable-objects/extractor/parse-page";

const listOf = (items: string) => {
  const document = parsePage(`<!doctype html><html><body><ol>${items}</ol></body></html>`);
  return toMarkdown(document.querySelector("ol") as never);
};

describe("ordered list numbers", () => {
  it("leaves out the list number of an item that prints its own", () => {
    const md = listOf(
      ["Book early", "Check the fuel policy"]
        .map(
          (t, i) =>
            `<li><div class="stepnum">${i + 1}</div><p><strong>${t}.</strong> Read the terms.</p></li>`,
        )
        .join(""),
    );
    expect(md).not.toMatch(/^1\. 1/m);
    expect(md).toMatch(/^- 2/m);
    expect(md.match(/\b2\b/g)).toHaveLength(1);
  });

  it("numbers the other items, and items opening with another number", () => {
    const md = listOf("<li>Preheat the oven.</li><li>5 eggs, beaten.</li><li>2.5 cups of flour.</li>");
    expect(md).toBe("1. Preheat the oven.\n2. 5 eggs, beaten.\n3. 2.5 cups of flour.");
  });
});
