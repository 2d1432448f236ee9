import { describe, expect, it } from "vitest";
import { extractMainContent } from "../../../durable-objects/extractor/extract";
import { withPassesOff } from "../../../durable-objects/extractor/passes";

const URL_OF_PAGE = "https://shop.example/products/oak-desk-lamp";

const DESCRIPTION = [
  "The oak desk lamp is turned by hand from a single piece of European oak and finished with a natural oil that brings out the grain of the wood.",
  "Its linen shade spreads a warm, even light across the desk, and the brass switch on the cord is within easy reach while you work.",
  "Each lamp is made to order in our workshop and takes about two weeks to finish, sand and oil before it is packed and sent to you.",
];

/** A shop's product page: the lamp's description, then a strip of other products linking to `/products/...`. */
function productPage(cards: { href: string; name: string }[], heading: string): string {
  const card = (c: { href: string; name: string }) =>
    `<div class="tile"><a href="${c.href}"><img src="/img/${c.name.length}.jpg" alt=""></a><a href="${c.href}">${c.name}</a><span class="amount">$${40 + c.name.length}.00</span></div>`;
  return `<!doctype html><html><head><title>Oak desk lamp</title>
<script type="application/ld+json">{"@context":"https://schema.org","@type":"Product","name":"Oak desk lamp","offers":{"@type":"Offer","price":"89.00","priceCurrency":"USD"}}</script>
</head><body><header><nav><a href="/">Home</a> <a href="/shop">Shop</a></nav></header>
<main><div class="product"><h1>Oak desk lamp</h1><p class="amount">$89.00</p>
<div class="about">${DESCRIPTION.map((p) => `<p>${p}</p>`).join("")}
<ul><li>Height: 42 cm</li><li>Shade: natural linen</li><li>Cord: 2 m with brass switch</li></ul>
<div class="strip"><h2>${heading}</h2><div class="tiles">${cards.map(card).join("")}</div></div>
</div></div></main><footer><a href="/about">About</a></footer></body></html>`;
}

const OTHERS = [
  { href: "/products/walnut-floor-lamp", name: "Walnut floor lamp" },
  { href: "/products/ash-wall-light", name: "Ash wall light" },
  { href: "https://shop.example/products/linen-shade-large", name: "Large linen shade" },
];

describe("other products on a product's page", () => {
  it("removes a strip of cards linking to other products' pages, with its heading, whatever it says", () => {
    for (const heading of ["You may also like", "Dazu passt"]) {
      const html = productPage(OTHERS, heading);
      const { markdown } = extractMainContent(html, URL_OF_PAGE);
      expect(markdown).toContain("turned by hand from a single piece of European oak");
      expect(markdown).toContain("Cord: 2 m with brass switch");
      expect(markdown).not.toContain("Walnut floor lamp");
      expect(markdown).not.toContain("Large linen shade");
      expect(markdown).not.toContain(heading);
      // With the pass off, the strip comes back.
      const off = withPassesOff(["other-products"], () => extractMainContent(html, URL_OF_PAGE).markdown);
      expect(off).toContain("Walnut floor lamp");
      expect(off).toContain(heading);
    }
  });

  it("keeps a comparison that shows the product itself among the cards", () => {
    const cards = [...OTHERS, { href: "/products/oak-desk-lamp", name: "Oak desk lamp (this one)" }];
    const { markdown } = extractMainContent(productPage(cards, "Compare our lamps"), URL_OF_PAGE);
    expect(markdown).toContain("Walnut floor lamp");
    expect(markdown).toContain("Oak desk lamp (this one)");
  });

  it("keeps cards linking to pages of another shape (the shop's guides, its collections)", () => {
    const cards = [
      { href: "/guides/caring-for-oak", name: "Caring for oak furniture" },
      { href: "/guides/choosing-a-shade", name: "Choosing a lamp shade" },
      { href: "/collections/lighting", name: "All our lighting" },
    ];
    const { markdown } = extractMainContent(productPage(cards, "Read more"), URL_OF_PAGE);
    expect(markdown).toContain("Caring for oak furniture");
    expect(markdown).toContain("Choosing a lamp shade");
  });
});
