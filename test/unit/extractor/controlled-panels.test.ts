import { describe, expect, it } from "vitest";
import { extractMainContent } from "../../../durable-objects/extractor/extract";

const card = (name: string, price: string) =>
  `<li class="tile"><h3><a href="/p/${name.toLowerCase().replace(/ /g, "-")}">${name}</a></h3><span class="price">${price}</span></li>`;
const grid = `<ul class="grid">${card("Alpine Trail Runner", "$120.00")}${card("Ridge Hiking Boot", "$165.00")}${card("Canyon Approach Shoe", "$140.00")}${card("Meadow Walking Shoe", "$95.00")}${card("Summit Mountaineering Boot", "$310.00")}${card("Valley Waterproof Boot", "$180.00")}</ul><p>Boots for day hikes, long treks and winter routes, from light trail shoes to stiff-soled mountaineering boots, with free returns.</p>`;
const fold = (n: number, question: string, answer: string) =>
  `<div class="acc-item"><button aria-controls="guide-${n}" aria-expanded="false">${question}</button><div id="guide-${n}" aria-hidden="true"><p>${answer}</p></div></div>`;
const page = (extra: string) =>
  `<!doctype html><html><head><title>Hiking boots</title></head><body><main><h1>Hiking boots</h1>${grid}<h2>How to choose hiking boots</h2>${fold(1, "Which cut is right for you?", "Low cuts suit well-kept trails and light loads; mid and high cuts hold the ankle on rough ground and under a heavy pack.")}${fold(2, "How should boots fit?", "Try boots on late in the day with the socks you hike in, and leave a finger's width in front of the toes.")}${extra}</main></body></html>`;

describe("panels opened by aria-controls (accordions whose buttons are the only label)", () => {
  it("keeps the folded answers a button names with aria-controls", () => {
    const { markdown } = extractMainContent(page(""), "https://shop.example/c/hiking-boots");
    expect(markdown).toContain(
      "Low cuts suit well-kept trails and light loads; mid and high cuts hold the ankle on rough ground and under a heavy pack.",
    );
    expect(markdown).toContain(
      "Try boots on late in the day with the socks you hike in, and leave a finger's width in front of the toes.",
    );
    expect(markdown).toContain(
      "- ### [Ridge Hiking Boot](https://shop.example/p/ridge-hiking-boot)\n  \n  $165.00",
    );
  });

  it("leaves out a hidden dropdown of links that a control opens", () => {
    const menu = `<div class="more"><button aria-controls="brands">Brands</button><div id="brands" aria-hidden="true"><a href="/b/a">Peakline boots</a> <a href="/b/b">Northfold boots</a> <a href="/b/c">Stonecrest boots</a></div></div>`;
    const { markdown } = extractMainContent(page(menu), "https://shop.example/c/hiking-boots");
    expect(markdown).toContain("leave a finger's width in front of the toes.");
    expect(markdown).not.toContain("Northfold");
  });
});
