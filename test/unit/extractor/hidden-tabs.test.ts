import { describe, expect, it } from "vitest";
import { extractMainContent } from "../../../durable-objects/extractor/extract";

const item = (name: string) =>
  `<li><a href="/templates/${name.toLowerCase().replace(/ /g, "-")}">${name}</a><p>Keep every step of ${name.toLowerCase()} in one list, shared with the people who help.</p></li>`;
const list = (hidden: boolean, names: string[]) =>
  `<ul class="templates-list${hidden ? " hidden" : ""}">${names.map(item).join("")}</ul>`;
const page = (tabs: string) =>
  `<!doctype html><html><head><title>Templates</title></head><body><header class="site-header"><a href="/">Home</a></header><main><h1>Templates for every job</h1><p>Start from a template made by people who plan for a living, then change it to fit the way your team already works.</p><p>Every template opens as a plain list of tasks with sections, dates and labels, ready for the first person to tick off.</p><div class="tabs"><span>Work</span><span>Personal</span><span>Education</span></div>${tabs}</main></body></html>`;

describe("tab sets switched by script", () => {
  it("still drops a hidden block that has no shown twin", () => {
    const tabs = `${list(false, ["Sprint planning", "Bug tracking", "Team meeting"])}<div class="promo hidden"><p>Upgrade to the pro plan today and save a fifth on the yearly price.</p></div>`;
    const { markdown } = extractMainContent(page(tabs), "https://todo.example/templates");
    expect(markdown).toContain("Sprint planning");
    expect(markdown).not.toContain("Upgrade to the pro plan");
  });
});
