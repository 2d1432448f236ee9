import { describe, expect, it } from "vitest";
import { extractMainContent } from "../../../durable-objects/extractor/extract";
import { withPassesOff } from "../../../durable-objects/extractor/passes";

const URL = "https://docs.example/guide/install.html";
const section = (id: string, title: string, text: string) =>
  `<section id="${id}"><h2>${title}<a class="headerlink" href="#${id}" title="Link to this heading">¶</a></h2><p>${text}</p></section>`;
/** A manual's page in the shape documentation generators print: a contents list, headings with permalinks, a note. */
const PAGE = `<!doctype html><html><head><title>Installing - Ledgers 2.1</title></head><body><nav class="sphinxsidebar"><a href="/">Ledgers</a></nav><div class="body" role="main"><h1>Installing<a class="headerlink" href="#installing">¶</a></h1><ul class="contents"><li><a href="#requirements">Requirements</a></li><li><a href="${URL}#from-source">From source</a></li></ul>${section(
  "requirements",
  "Requirements",
  `Ledgers runs on any system with Python 3.10 or later and a C compiler for its one native module<a href="#note-1">1</a>. See the <a href="https://python.example/downloads">downloads page</a> for an installer, or <a href="#from-source">build it from source</a>.`,
)}${section(
  "from-source",
  "From source",
  "Clone the repository, run the build script, and install the wheel it writes into the dist folder of the checkout, then run the tests to check the native module loaded.",
)}<p><a href="https://python.example/downloads"><img src="/py.png" alt=""></a></p><p id="note-1">1. The module speeds up balance reads; without it Ledgers falls back to pure Python.</p></div></body></html>`;

const read = (off: string[] = []) => withPassesOff(off, () => extractMainContent(PAGE, URL).markdown);

describe("links the reader gains nothing from", () => {
  it("print their text when they lead into the page, go when they show no words, and leave the rest alone", () => {
    const markdown = read();
    expect(markdown).toContain("## Requirements\n\nLedgers runs on any system");
    expect(markdown).toContain("for an installer, or build it from source.");
    expect(markdown).toContain(
      "native module1. See the [downloads page](https://python.example/downloads) for",
    );
    expect(markdown).not.toContain("¶");
    expect(markdown).not.toContain("#from-source");
    // The picture's link leads where the worded "downloads page" does: it goes, with no []() left.
    expect(markdown).not.toContain("[]");
    // With the pass off, every heading carries its permalink and the contents link into the page.
    const off = read(["idle-links"]);
    expect(off).toContain("## Requirements[¶](");
    expect(off).toContain("[](https://python.example/downloads)");
    expect(off).toContain("[build it from source](https://docs.example/guide/install.html#from-source)");
  });
});
