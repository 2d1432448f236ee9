import { describe, expect, it } from "vitest";
import { extractMainContent } from "../../../durable-objects/extractor/extract";

// A ranked list written as an ordered list (an "alternatives to X" page), with readers' comments
// under it: the comments are a thread the list does not hold, but they are not the page.
const APPS = [
  "Quillnote",
  "Paperlane",
  "Harbour Notes",
  "Saltbook",
  "Orchard Wiki",
  "Clockwork Tasks",
  "Moonpad",
  "Ferryboard",
  "Valley Docs",
  "Glasshouse",
  "Lantern Notes",
  "Cartograph",
];
const item = (name: string, i: number) =>
  `<li class="app-item"><h2><a href="/software/${i}">${name}</a></h2><p>${name} keeps notes, tasks and wiki pages in one place, with offline editing, end-to-end encryption and plugins that let each team shape its own workspace; ${i + 40} people recommend it over the others here.</p><a href="/software/${i}/alternatives">${i + 100} ${name} alternatives</a></li>`;
const comment = (i: number) =>
  `<div class="comment" id="comment_${i}"><div class="commentHeader"><strong>message ${i}:</strong> by <span class="commentAuthor"><a href="/user/${i}">Reader ${i}</a></span> <a href="#comment_${i}">Jul ${i + 1}, 2008 09:08PM</a></div><div class="commentText">I have tried most of the apps on this list over the years and I think number ${i} deserves a higher place than it has now; the ranking here always surprises me, but that is part of the fun of lists like this one.</div></div>`;
const page = `<!doctype html><html><head><title>Alternatives to Notebook</title></head><body><header class="site-header"><nav><a href="/">Home</a> <a href="/lists">Lists</a></nav></header><div class="content"><div class="mainContent"><h1>The best alternatives to Notebook</h1><p>The apps our members rank as the best alternatives, ordered by their recommendations.</p><ol class="appList">${APPS.map(item).join("")}</ol><div class="comments"><h2>Comments Showing 1-14 of 4,718</h2>${Array.from({ length: 14 }, (_, i) => comment(i + 1)).join("")}</div></div></div><footer><p>© 2026 Apps</p></footer></body></html>`;

describe("a ranked list in an ordered list with readers' comments under it", () => {
  it("keeps the list and leaves the comments", () => {
    const out = extractMainContent(page, "https://apps.example/alternatives/notebook").markdown;
    expect(out).toContain("Cartograph");
    expect(out).not.toContain("the ranking here always surprises me");
  });
});
