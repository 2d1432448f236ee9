import { describe, expect, it } from "vitest";
import { extractMainContent } from "../../../durable-objects/extractor/extract";
import { withPassesOff } from "../../../durable-objects/extractor/passes";

/**
 * Bold and italics as Markdown can write them. Pages nest emphasis in itself (`<i><em>`), print a
 * phrase as bold runs side by side, and wrap paragraphs in `<b>`: turndown wrote `**` per element,
 * so the reader got `**what happened**` for italics, `**Us$****11.99**`, and lines of bare `**`.
 */
const PARAGRAPH = `<p>The harbour board met on Tuesday night and agreed to extend the night bus routes to the ferry terminal after two years of petitions.</p>`;
const read = (snippet: string) => {
  const html = `<!doctype html><html><head><title>Buses</title></head><body><article>${PARAGRAPH}${snippet}${PARAGRAPH}</article></body></html>`;
  const middle = (markdown: string) => markdown.split("\n\n").slice(1, -1).join("\n\n");
  return {
    on: middle(extractMainContent(html, "https://news.example/buses").markdown),
    off: middle(
      withPassesOff(["emphasis"], () => extractMainContent(html, "https://news.example/buses").markdown),
    ),
  };
};

describe("emphasis", () => {
  it("prints its marks once however deep the page nests it", () => {
    const { on, off } = read(
      "<p>It tells you <i><em>what already happened</em></i>, and <b><b><i><b>this</b></i></b></b> matters.</p>",
    );
    expect(on).toBe("It tells you *what already happened*, and ***this*** matters.");
    expect(off).toBe("It tells you **what already happened**, and *******this******* matters.");
  });

  it("joins runs side by side into one, and keeps runs apart that a space or break parts", () => {
    const { on } = read(
      "<p>Three months: <b>Us$</b><b>11.99</b> a month; <b>night</b> <b>buses</b>.</p><p><b>Who is this for?<br></b><b><i>Riders</i></b> of the late ferries.</p>",
    );
    expect(on).toBe(
      "Three months: **Us$11.99** a month; **night** **buses**.\n\n**Who is this for?**  \n***Riders*** of the late ferries.",
    );
  });

  it("is left off around whole paragraphs, where Markdown cannot hold it", () => {
    const { on, off } = read(
      "<b><p>The first bus leaves the square at midnight every night.</p><p>The last one returns at four in the morning.</p></b>",
    );
    expect(on).toBe(
      "The first bus leaves the square at midnight every night.\n\nThe last one returns at four in the morning.",
    );
    expect(off.split("\n\n")).toContain("**");
  });
});
