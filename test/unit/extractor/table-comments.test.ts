import { describe, expect, it } from "vitest";
import { extractMainContent } from "../../../durable-objects/extractor/extract";

const BOOKS = [
  "The Quiet Harbour",
  "Letters from the North",
  "A House of Small Rooms",
  "The Salt Road",
  "Winter in the Orchard",
  "The Clockmaker's Daughter",
  "Under the Pale Moon",
  "The Last Ferry Home",
  "Songs of the Valley",
  "The Glass Garden",
  "River of Lanterns",
  "The Paper Cartographer",
];
const row = (title: string, i: number) =>
  `<tr><td class="number">${i + 1}</td><td><a class="bookTitle" href="/book/${i}">${title}</a> by <a class="authorName" href="/author/${i}">Author ${i}</a><br><span class="minirating">4.${i} avg rating — ${i + 3},${i}21 ratings</span><br><a href="#">score: ${i + 9},${i}04</a>, and ${i + 2}${i} people voted for this book on the list so far</td></tr>`;
const comment = (i: number) =>
  `<div class="comment" id="comment_${i}"><div class="commentHeader"><strong>message ${i}:</strong> by <span class="commentAuthor"><a href="/user/${i}">Reader ${i}</a></span> <a href="#comment_${i}">Jul ${i + 1}, 2008 09:08PM</a></div><div class="reviewText">I have read most of the books on this list over the years and I think number ${i} deserves a higher place than it has now; the voting here always surprises me, but that is part of the fun of lists like this one.</div></div>`;
const page = `<!doctype html><html><head><title>Best Books</title></head><body><header class="site-header"><nav><a href="/">Home</a> <a href="/lists">Lists</a></nav></header><div class="content"><div class="mainContent"><h1>Best Books Ever</h1><p>The books readers have voted the best of all time, ranked by the votes of every member of the site.</p><table class="tableList">${BOOKS.map(row).join("")}</table><div class="comments"><h2>Comments Showing 1-14 of 4,718</h2>${Array.from({ length: 14 }, (_, i) => comment(i + 1)).join("")}</div></div></div><footer><p>© 2026 Books</p></footer></body></html>`;

describe("a list read as a table with readers' comments under it", () => {
  it("keeps the list and leaves the comments", () => {
    const out = extractMainContent(page, "https://books.example/list/1").markdown;
    expect(out).toContain("The Paper Cartographer");
    expect(out).not.toContain("the voting here always surprises me");
  });
});
