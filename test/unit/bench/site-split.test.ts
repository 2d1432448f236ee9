import { describe, expect, it } from "vitest";
import { isHeldOut, siteOf } from "../../../bench/site-split";

describe("the site-disjoint split of the benchmarks", () => {
  it("names a page's site by its registrable host", () => {
    expect(siteOf("https://www.example.com/a/b")).toBe("example.com");
    expect(siteOf("https://news.blog.example.com/")).toBe("example.com");
    expect(siteOf("https://www.example.co.uk/story")).toBe("example.co.uk");
    expect(siteOf("https://shop.example.com.au/item")).toBe("example.com.au");
    expect(siteOf("https://example.de/")).toBe("example.de");
    expect(siteOf("not a url")).toBe("");
  });

  it("puts every page of one site on the same side", () => {
    const sides = ["https://a.example.com/1", "https://www.example.com/2", "http://example.com/3?x"].map(
      (u, i) => isHeldOut(u, String(i)),
    );
    expect(new Set(sides).size).toBe(1);
  });

  it("holds out about one site in five, the same ones on every run", () => {
    const urls = Array.from({ length: 1000 }, (_, i) => `https://www.site${i}.org/page`);
    const held = urls.filter((u, i) => isHeldOut(u, String(i))).length;
    expect(held).toBeGreaterThan(150);
    expect(held).toBeLessThan(250);
    expect(urls.filter((u, i) => isHeldOut(u, String(i))).length).toBe(held);
  });
});
