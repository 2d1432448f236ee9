import { describe, expect, it } from "vitest";
import { extractMainContent } from "../../../durable-objects/extractor/extract";
import { htmlToMarkdown } from "../../../durable-objects/extractor/index";
import { withPassesOff } from "../../../durable-objects/extractor/passes";

const post = (who: string, when: string, text: string) =>
  `<tr><td><a href="/u/${who}">${who}</a> at <b>${when}</b></td></tr><tr><td><p>${text}</p><p>${text.replace("I ", "We ")}</p></td></tr>`;
/** A board of the old kind: the page is a table of two columns (menu, thread), and the thread a table of one. */
const BOARD = `<!doctype html><html><head><title>Seed swap - Allotment board</title></head><body><table width="100%"><tr><td width="160"><ul><li><a href="/">Boards</a></li><li><a href="/rules">Rules</a></li></ul></td><td><h1>Seed swap</h1><table class="thread">${[
  post(
    "marrowman",
    "9:14am",
    "I have twenty packets of runner bean seed from last year to swap for anything in the squash family.",
  ),
  post(
    "leekqueen",
    "10:02am",
    "I can send you three kinds of squash, and I would take the runner beans gladly for the back fence.",
  ),
  post(
    "marrowman",
    "11:40am",
    "I will post them on Monday, and I have written the sowing dates on every packet for you.",
  ),
].join("")}</table></td></tr></table></body></html>`;

const read = (off: string[] = []) =>
  withPassesOff(off, () => extractMainContent(BOARD, "https://allotments.example/t/seed-swap").markdown);

describe("tables the page is laid out with", () => {
  it("reads a thread set in a one-column table as blocks, its paragraphs apart", () => {
    const markdown = read();
    expect(markdown).toContain(
      "I have twenty packets of runner bean seed from last year to swap for anything in the squash family.\n\nWe have twenty packets",
    );
    expect(markdown).not.toContain("|");
    // Read as a data table, each post is one cell: its paragraphs run together between pipes.
    const off = read(["layout-tables"]);
    expect(off).toContain("| I have twenty packets");
    expect(off).toContain("squash family. We have twenty packets");
  });

  it("keeps a table of data a table, and reads a table marked as presentation as blocks", () => {
    expect(
      htmlToMarkdown("<table><tr><th>Bed</th><th>Crop</th></tr><tr><td>1</td><td>Leeks</td></tr></table>"),
    ).toBe("| Bed | Crop |\n| --- | --- |\n| 1 | Leeks |");
    expect(
      htmlToMarkdown('<table role="presentation"><tr><td><p>Menu</p></td><td><p>Story</p></td></tr></table>'),
    ).toBe("Menu\n\nStory");
  });
});
