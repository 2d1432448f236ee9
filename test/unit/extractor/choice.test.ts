import { describe, expect, it } from "vitest";
import { extractMainContent } from "../../../durable-objects/extractor/extract";
import { withPassesOff } from "../../../durable-objects/extractor/passes";

const PARAGRAPH =
  "The ferry timetable changes on the first of May, when the summer boats start to run every half hour from the old harbour to the island and back again.";
const stop = (n: number) =>
  `<li>Stop ${n}: the quay by the fish market, where the boat waits five minutes while the crew loads bicycles and the morning post.</li>`;
/** A page of no stated type: an intro Readability takes as the article, and a list of stops beside it in the page's `<main>`. */
const page = (stops: number) =>
  `<!doctype html><html><head><title>Ferry</title></head><body><nav><a href="/">Home</a></nav><main><div class="intro"><h1>Summer ferries</h1><p>${PARAGRAPH}</p><p>${PARAGRAPH.replace("May", "June")}</p></div><ol>${Array.from({ length: stops }, (_, i) => stop(i + 1)).join("")}</ol></main><footer>Contact</footer></body></html>`;
const read = (html: string, off: string[] = []) =>
  withPassesOff(off, () => extractMainContent(html, "https://ferries.example/summer").markdown);

describe("the choice between Readability's article and the page's region, switched for the choice eval", () => {
  it("takes the region when it holds clearly more, and the article with choose-region off", () => {
    const twelve = page(12);
    expect(read(twelve)).toContain("Stop 12: the quay");
    const article = read(twelve, ["choose-region"]);
    expect(article).toContain("first of June");
    expect(article).not.toContain("Stop 1:");
  });

  it("keeps the article when the region holds little more, and the region with choose-article off", () => {
    const one = page(1);
    expect(read(one)).toContain("first of June");
    expect(read(one)).not.toContain("Stop 1:");
    expect(read(one, ["choose-article"])).toContain("Stop 1: the quay");
  });
});
