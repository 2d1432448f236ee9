import { parseHTML } from "linkedom";
import { describe, expect, it } from "vitest";
import type { DomDocument } from "../../../durable-objects/extractor/dom-types";
import { readJsonLd } from "../../../durable-objects/extractor/metadata";
import { pageKind } from "../../../durable-objects/extractor/page-kind";

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

describe("threads by what they state", () => {
  const faq = (extra = "") =>
    `<html><body><div itemscope itemtype="https://schema.org/FAQPage">${extra}
      <div itemscope itemprop="mainEntity" itemtype="https://schema.org/Question"><h3 itemprop="name">Is it dishwasher safe?</h3>
      <div itemscope itemprop="acceptedAnswer" itemtype="https://schema.org/Answer"><p itemprop="text">Yes, on the top rack.</p></div></div>
    </div></body></html>`;
  const kindOfHtml = (html: string) =>
    pageKind(parseHTML(html).document as unknown as DomDocument, readJsonLd(html));

  it("does not read an FAQPage's own questions and answers as a thread", () => {
    expect(kindOfHtml(faq())).toBe("other");
    expect(
      kindOfHtml(
        `<html><head><script type="application/ld+json">{"@type":"FAQPage","mainEntity":[{"@type":"Question","name":"Does it ship abroad?","acceptedAnswer":{"@type":"Answer","text":"Yes."}}]}</script></head><body><p>x</p></body></html>`,
      ),
    ).toBe("other");
  });

  it("still reads a question with its answers outside an FAQPage, or a forum post beside one, as a thread", () => {
    expect(kindOfHtml(faq().replace("FAQPage", "QAPage"))).toBe("forum");
    expect(
      kindOfHtml(
        faq('<div itemscope itemtype="https://schema.org/DiscussionForumPosting"><p>First!</p></div>'),
      ),
    ).toBe("forum");
  });
});
