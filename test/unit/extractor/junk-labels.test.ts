import { describe, expect, it } from "vitest";
import { extractMainContent } from "../../../durable-objects/extractor/extract";

const head = `<head><title>Planning a dinner party</title><meta property="og:type" content="article"></head>`;
const para = (n: number) =>
  `<p>Step ${n} of planning the dinner covers the guests, the menu, the shopping and the table it needs.</p>`;
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);
const steps = (from: number, to: number) => range(from, to).map(para).join("");
const stepLines = (from: number, to: number) =>
  range(from, to).map(
    (n) =>
      `Step ${n} of planning the dinner covers the guests, the menu, the shopping and the table it needs.`,
  );
const page = (body: string) =>
  `<!doctype html><html>${head}<body><article><h1>Planning a dinner party</h1>${body}</article></body></html>`;
const read = (body: string) => extractMainContent(page(body), "https://dinner.example/plan").markdown;

describe("junk class words read as whole labels", () => {
  it("keeps a long block labelled skip-item and drops a short skip link", () => {
    const markdown = read(
      `<a class="skip-link" href="#main">Skip to content</a>${para(1)}<div class="skip-item topic2"><h2>Seating</h2><p>Seat the quiet guests beside the talkers so that every end of the table has a conversation going all evening.</p></div>${para(3)}`,
    );
    expect(markdown).toBe(
      [
        "Step 1 of planning the dinner covers the guests, the menu, the shopping and the table it needs.",
        "## Seating",
        "Seat the quiet guests beside the talkers so that every end of the table has a conversation going all evening.",
        "Step 3 of planning the dinner covers the guests, the menu, the shopping and the table it needs.",
      ].join("\n\n"),
    );
  });

  it("keeps the text a show-more block unfolds and drops a short read-more link", () => {
    const markdown = read(
      `${para(1)}<div class="summary show-more"><p>Cook the main course the day before the party.</p><p>Stews and braises taste better once they have rested overnight in a cold fridge.</p></div><p class="read-more"><a href="/next">Read more</a></p>${para(2)}${para(3)}${para(4)}`,
    );
    expect(markdown).toBe(
      [
        "Step 1 of planning the dinner covers the guests, the menu, the shopping and the table it needs.",
        "Cook the main course the day before the party.",
        "Stews and braises taste better once they have rested overnight in a cold fridge.",
        "Step 2 of planning the dinner covers the guests, the menu, the shopping and the table it needs.",
        "Step 3 of planning the dinner covers the guests, the menu, the shopping and the table it needs.",
        "Step 4 of planning the dinner covers the guests, the menu, the shopping and the table it needs.",
      ].join("\n\n"),
    );
  });

  it("keeps an accordion drawer of prose and drops a drawer of links", () => {
    const prose =
      "Buy the wine a week ahead and chill the white the morning of the party. Count one bottle for every two guests, and a little more if the evening runs late, since nobody wants to run out before dessert arrives. Keep a few bottles of something without alcohol for the drivers.";
    const markdown = read(
      `${para(1)}<div class="accordion_drawer"><h2>Drinks</h2><p>${prose}</p><p>Offer water on the table all evening.</p></div>${steps(3, 12)}<div class="drawer"><ul><li><a href="/a">Recipes</a></li><li><a href="/b">Guides</a></li><li><a href="/c">Shop</a></li></ul></div>${para(2)}`,
    );
    expect(markdown).toBe(
      [
        "Step 1 of planning the dinner covers the guests, the menu, the shopping and the table it needs.",
        "## Drinks",
        prose,
        "Offer water on the table all evening.",
        ...stepLines(3, 12),
        "Step 2 of planning the dinner covers the guests, the menu, the shopping and the table it needs.",
      ].join("\n\n"),
    );
  });

  it("keeps the drawers of an accordion (one class, three times on the page) holding no paragraph, and drops a menu drawer", () => {
    const answer = (q: string) =>
      `<div class="drawer"><h3>${q}?</h3><span>For ${q.toLowerCase()}, count one bottle for every two guests, chill the white the morning of the party, and keep a few bottles without alcohol.</span></div>`;
    const markdown = read(
      `${steps(1, 12)}${answer("How much wine")}${answer("When to chill it")}${answer("What for the drivers")}<div class="menu-drawer"><ul><li><a href="/a">Recipes</a></li><li><a href="/b">Guides</a></li><li><a href="/c">Shop</a></li></ul></div>`,
    );
    expect(markdown).toContain("### How much wine?");
    expect(markdown).toContain("### What for the drivers?");
    expect(markdown).toContain("For when to chill it, count one bottle");
    expect(markdown).toContain("For what for the drivers, count one bottle");
    expect(markdown).not.toContain("Recipes");
  });

  it("keeps the class-hidden answers of an FAQ accordion and drops a hidden promo", () => {
    const html = `<!doctype html><html><head><title>Dinner party questions</title></head><body><main><h1>Dinner party questions</h1>${para(1)}${para(2)}
      <h2>How early should I invite?</h2><div class="faq-answer accordion-content hidden"><p>Three weeks ahead for a weekend.</p><p>Guests then keep the evening free.</p></div>
      <div class="promo-box hidden"><p>Get our party checklist by email.</p><p>One click and it is yours.</p></div></main></body></html>`;
    const { markdown } = extractMainContent(html, "https://dinner.example/faq");
    expect(markdown).toBe(
      [
        "Step 1 of planning the dinner covers the guests, the menu, the shopping and the table it needs.",
        "Step 2 of planning the dinner covers the guests, the menu, the shopping and the table it needs.",
        "## How early should I invite?",
        "Three weeks ahead for a weekend.",
        "Guests then keep the evening free.",
      ].join("\n\n"),
    );
  });

  it("does not read a layout's state (sidebar-enabled--false, has-sidebar) as a sidebar", () => {
    const markdown = read(
      `<div class="article__main sidebar-enabled--false"><p>Key takeaways: plan the menu first, then invite the guests and set the table.</p><ul><li>Cook ahead</li><li>Seat the talkers apart</li></ul></div><div class="sidebar"><p>Popular posts this week</p></div>${steps(1, 6)}`,
    );
    expect(markdown).toBe(
      [
        "Key takeaways: plan the menu first, then invite the guests and set the table.",
        "- Cook ahead\n- Seat the talkers apart",
        ...stepLines(1, 6),
      ].join("\n\n"),
    );
    const withState = read(
      `<div class="post-content has-sidebar"><p>Key takeaways: plan the menu first, then invite the guests and set the table.</p><ul><li>Cook ahead</li></ul></div>${steps(1, 6)}`,
    );
    expect(withState.split("\n\n")[0]).toBe(
      "Key takeaways: plan the menu first, then invite the guests and set the table.",
    );
  });
});

describe("a section's one-word id that spells its heading", () => {
  const docPage = (sections: string) =>
    `<!doctype html><html><head><title>Quickstart</title></head><body><main><h1>Quickstart</h1>${sections}</main></body></html>`;
  const section = (id: string, heading: string, text: string) =>
    `<section id="${id}"><h2>${heading}</h2><p>${text}</p></section>`;

  it("still reads a cookie banner labelled by its id", () => {
    const markdown = extractMainContent(
      docPage(
        `${section("routing", "Routing", "Use the route decorator to bind a function to a URL, and give each view a name so that templates can link to it.")}<div id="cookies"><p>We use cookies to improve your experience. Accept all cookies?</p></div>${section("sessions", "Sessions", "A session keeps information from one request to the next, signed with a secret key so that users cannot change it.")}`,
      ),
      "https://docs.example/quickstart",
    ).markdown;
    expect(markdown).not.toContain("We use cookies");
  });
});

describe("a slider's control style", () => {
  it("does not make the slider a navigation (`dark-nav-btns`)", () => {
    const slides = ["Rowing Machine R50", "Folding Treadmill T9", "Upright Bike U3", "Smart Gym Trainer C10"]
      .map(
        (t, i) => `<div class="slide"><h3><a href="/p/${i}">${t}</a></h3><p>$${1299 + i * 100}.00</p></div>`,
      )
      .join("");
    const html = `<!doctype html><html><head><title>Home gyms</title></head><body><main><h1>Home gym equipment</h1><p>Everything you need to train at home, from treadmills and bikes to all-in-one gyms, with free delivery and setup in your room by our own fitters.</p><p>Our stores let you try each machine before you buy it, and our fitters service it for as long as you own it, wherever you live in the country.</p><p>Pay over twelve months without interest on every order above one thousand dollars, and return any machine within thirty days.</p><div class="category-carousel dark-nav-btns">${slides}</div></main></body></html>`;
    const { markdown } = extractMainContent(html, "https://gym.example/c/home");
    expect(markdown).toContain("Smart Gym Trainer C10");
  });
});
