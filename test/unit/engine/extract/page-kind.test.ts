import { parseHTML } from "linkedom";
import { describe, expect, it } from "vitest";
import type { DomDocument } from "../../../../durable-objects/engine/extract/dom-types";
import { readJsonLd } from "../../../../durable-objects/engine/extract/metadata";
import { pageKind } from "../../../../durable-objects/engine/extract/page-kind";

const kindOf = (json: string) => {
  const html = `<html><head><script type="application/ld+json">${json}</script></head><body><p>x</p></body></html>`;
  return pageKind(parseHTML(html).document as unknown as DomDocument, readJsonLd(html));
};
const rating = '"aggregateRating":{"@type":"AggregateRating","ratingValue":"4.9","reviewCount":"212"}';

describe("products by what they state", () => {
  it("reads a Product with ratings and nothing for sale as a rating snippet, not a product", () => {
    // A pest-control company's page, marked up for the stars of a search result.
    expect(
      kindOf(
        `{"@context":"https://schema.org","@type":"Product","name":"Pest control","description":"Ant and termite treatment",${rating}}`,
      ),
    ).toBe("other");
  });

  it("reads a Product that states an offer, a brand or an identifier as a product", () => {
    expect(
      kindOf(`{"@type":"Product","name":"Trail runner",${rating},"offers":{"@type":"Offer","price":"120"}}`),
    ).toBe("product");
    expect(kindOf(`{"@type":"Product","name":"Trail runner","brand":"Fellside",${rating}}`)).toBe("product");
    expect(kindOf(`{"@type":"Product","name":"Trail runner","sku":"TR-1",${rating}}`)).toBe("product");
    // No ratings either: a product's plain statement.
    expect(kindOf(`{"@type":"Product","name":"Trail runner"}`)).toBe("product");
  });
});
