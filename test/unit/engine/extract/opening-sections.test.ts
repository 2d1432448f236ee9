import { describe, expect, it } from "vitest";
import { extractMainContent } from "../../../../durable-objects/engine/extract/extract";

const para = (topic: string) =>
  `<p>Our ${topic} visits start with a walk through the whole house, a written plan for each room, and a fixed price that will not change once the work has started.</p>`;
// Each builder section holds its copy beside a picture; Readability takes the second one's copy.
const section = (copy: string) =>
  `<section class="block"><div class="inner">${copy}<div class="note"><img src="/van.jpg" alt=""></div></div></section>`;
const body = section(
  `<div class="copy"><h2>How a visit works</h2>${["kitchen", "attic", "garage", "cellar", "garden", "porch"].map(para).join("")}</div>`,
);
const page = (intro: string) =>
  `<!doctype html><html><head><title>Home care</title></head><body><div class="site"><div class="links"><a href="/">Home</a> <a href="/about">About</a></div>${intro}${body}</div></body></html>`;

describe("the opening sections of a page of like sections", () => {
  it("reads the intro printed in an earlier section of the same shape before the article", () => {
    const intro = section(
      `<div class="lead"><h2>Home care plans</h2><p>Sign up for a yearly plan and we look after the whole house for you, with two visits a year and repairs at half price.</p></div>`,
    );
    const { markdown } = extractMainContent(page(intro), "https://homecare.example/plans");
    expect(markdown).toContain("Sign up for a yearly plan");
    expect(markdown.indexOf("Sign up for a yearly plan")).toBeLessThan(markdown.indexOf("How a visit works"));
  });

  it("leaves an earlier section of the same shape made of links", () => {
    const links = section(
      `<p><a href="/a">Kitchen repairs and fittings in every town of the county</a> <a href="/b">Attic insulation and roof windows fitted in one day</a></p>`,
    );
    const { markdown } = extractMainContent(page(links), "https://homecare.example/plans");
    expect(markdown).toContain("How a visit works");
    expect(markdown).not.toContain("Attic insulation");
  });
});

describe("a titled section left beside Readability's article", () => {
  const guide = (head: string) =>
    `<!doctype html><html><head><title>Flexbox guide</title></head><body><div class="menu"><a href="/">Docs</a> <a href="/css">CSS</a></div><main class="layout">${head}<div class="layout-body">${["row", "column", "wrap", "gap", "order", "grow"].map((word) => `<p>The ${word} setting of a flex container decides how its items are laid out along the main axis and how much room each of them takes there.</p>`).join("")}</div></main></body></html>`;

  it("reads the title block with its intro before the article", () => {
    const head = `<div class="layout-head"><h2>Basic concepts</h2><p>This guide gives an outline of the main features of flexbox and what each of them is for.</p></div>`;
    const { markdown } = extractMainContent(guide(head), "https://docs.example/flexbox");
    expect(markdown).toContain("This guide gives an outline");
    expect(markdown.indexOf("This guide gives an outline")).toBeLessThan(markdown.indexOf("The row setting"));
  });

  it("leaves a titled block that Readability's own words label as a contact box", () => {
    const contact = `<div class="contact-box"><h2>Ask us</h2><p>Write to the documentation team with any question about this guide and we answer within a day.</p></div>`;
    const { markdown } = extractMainContent(guide(contact), "https://docs.example/flexbox");
    expect(markdown).toContain("The row setting");
    expect(markdown).not.toContain("Write to the documentation team");
  });

  it("reads an untitled section built like the block Readability took", () => {
    const page = `<!doctype html><html><head><title>Window cleaning</title></head><body><div class="menu"><a href="/">Home</a> <a href="/book">Book</a></div><div class="page"><div class="block block-intro"><p>We clean the windows of homes and shops in the whole town.</p><p>Every visit covers frames, sills and the glass on both sides.</p></div><div class="block block-body">${["monday", "tuesday", "wednesday", "thursday", "friday", "saturday"].map((day) => `<p>On ${day} our crews work in a different part of town, so that each street is cleaned at the same time each month and you always know when we come.</p>`).join("")}</div></div></body></html>`;
    const { markdown } = extractMainContent(page, "https://windows.example/");
    expect(markdown).toContain("We clean the windows of homes");
    expect(markdown.indexOf("We clean the windows of homes")).toBeLessThan(markdown.indexOf("On monday"));
  });
});
