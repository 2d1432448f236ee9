import { describe, expect, it } from "vitest";
import { extractMainContent } from "../../../../durable-objects/engine/extract/extract";

const TALKS = [
  "Rust on the edge",
  "Queues that never lose a job",
  "Caching without tears",
  "Tracing a slow request",
  "Schemas shared by client and server",
];
const page = (main: string) =>
  `<!doctype html><html><head><title>Talks</title></head><body><header class="site-header"><a href="/">Home</a></header><main><h1>Online talks this month</h1>${main}</main><footer><p>© 2026 Meetups</p></footer></body></html>`;
const layout = (talk: string, date: string, host: string) =>
  `<div class="layout"><h3><a href="/t/${talk.length}">${talk}</a></h3><p>${date}</p><p>Free</p>${host ? `<p>${host}</p>` : ""}</div>`;

describe("cards printed twice", () => {
  it("keeps each text of a card once when every card shows a desktop and a phone layout of itself", () => {
    const cards = TALKS.map(
      (t, i) =>
        `<li class="card">${layout(t, `Tuesday ${i + 3} at 6 PM`, `Hosted by group ${i + 1}`)}${layout(t, `Tuesday ${i + 3} at 6 PM`, "")}</li>`,
    ).join("");
    const { markdown } = extractMainContent(
      page(`<ul class="results">${cards}</ul>`),
      "https://talks.example/",
    );
    for (const [i, t] of TALKS.entries()) {
      expect(markdown.split(`### [${t}]`).length - 1).toBe(1);
      expect(markdown.split(`Tuesday ${i + 3} at 6 PM`).length - 1).toBe(1);
      expect(markdown).toContain(`Hosted by group ${i + 1}`);
    }
    // "Free" is each card's own: once per card, not once per page.
    expect(markdown.split("Free").length - 1).toBe(TALKS.length);
  });

  it("leaves cards alone that show their heading once, however alike their texts", () => {
    const cards = TALKS.map(
      (t) =>
        `<li class="card">${layout(t, "Tuesday at 6 PM", "")}<h4>Speaker notes for ${t}</h4><p>Tuesday at 6 PM</p></li>`,
    ).join("");
    const { markdown } = extractMainContent(
      page(`<ul class="results">${cards}</ul>`),
      "https://talks.example/",
    );
    expect(markdown.split("Tuesday at 6 PM").length - 1).toBe(TALKS.length * 2);
  });
});
