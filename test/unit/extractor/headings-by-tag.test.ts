import { describe, expect, it } from "vitest";
import { extractMainContent } from "../../../durable-objects/extractor/extract";
import { withPassesOff } from "../../../durable-objects/extractor/passes";

const NOTE =
  "Entries are never rewritten in place: a correction is a new entry that points at the one it corrects, so the history of every account can be read back in full.";
/** An API reference in the shape rustdoc prints: each method's signature is an `<h4 class="code-header">`. */
const method = (name: string, signature: string, doc: string) =>
  `<details class="toggle method-toggle" open><summary><section id="method.${name}" class="method"><h4 class="code-header">pub fn ${signature}</h4></section></summary><div class="docblock"><p>${doc}</p><p>${NOTE}</p></div></details>`;
const API = `<!doctype html><html><head><title>Ledger in ledgers</title></head><body><nav class="sidebar"><a href="/">ledgers</a></nav><main><section id="main-content" class="content"><h1>Struct Ledger</h1><div class="docblock"><p>A ledger of dated entries kept in the order they were written, with running balances per account.</p></div><h2 id="implementations">Implementations</h2>${method("push", "push(&amp;mut self, entry: Entry)", "Appends an entry at the end of the ledger and updates the balance of its account.")}${method("balance", "balance(&amp;self, account: &amp;str) -&gt; i64", "Returns the running balance of an account, or zero when the ledger holds no entry for it.")}${method("since", "since(&amp;self, date: Date) -&gt; Entries", "Returns the entries written on or after a date, oldest first, as an iterator over references.")}</section></main></body></html>`;

/** A newsletter post whose section headings carry a class naming them headers. */
const POST = `<!doctype html><html><head><title>Three lessons from a year of night buses</title></head><body><article><h1>Three lessons from a year of night buses</h1>${[
  [
    "Riders come back",
    "The riders who tried the night routes in the first month were still riding them a year later, and they brought their colleagues from the harbour shifts.",
  ],
  [
    "Timetables beat frequency",
    "A bus every forty minutes that leaves on the minute was used more than a bus every twenty that came when it could.",
  ],
  [
    "Drivers want the late shift",
    "The late shift paid a premium and ran on empty roads, and the drivers asked for it before anyone thought to offer it.",
  ],
]
  .map(
    ([h, p]) =>
      `<h2 class="header-anchor-post">${h}</h2><p>${p}</p><p>${p.replace("The ", "Again, the ")}</p>`,
  )
  .join("")}</article></body></html>`;

const read = (html: string, url: string, off: string[] = []) =>
  withPassesOff(off, () => extractMainContent(html, url).markdown);

describe("headings kept by their tag, whatever their class names", () => {
  it("keeps an API reference's method signatures", () => {
    const url = "https://docs.example/ledgers/struct.Ledger.html";
    const markdown = read(API, url);
    expect(markdown).toContain("#### pub fn push(&mut self, entry: Entry)\n\nAppends an entry");
    expect(markdown).toContain(
      "#### pub fn balance(&self, account: &str) -> i64\n\nReturns the running balance",
    );
    // Readability's unlikely-candidate words (`header`) would drop every signature, keeping the prose.
    const off = read(API, url, ["headings-by-tag"]);
    expect(off).toContain("Appends an entry at the end of the ledger");
    expect(off).not.toContain("pub fn");
  });

  it("keeps a post's section headings", () => {
    const url = "https://letters.example/p/night-buses";
    const markdown = read(POST, url);
    expect(markdown).toContain("## Riders come back\n\nThe riders who tried");
    expect(markdown).toContain("## Drivers want the late shift\n\n");
    expect(read(POST, url, ["headings-by-tag"])).not.toContain("Riders come back");
  });
});
