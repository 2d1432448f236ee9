import { describe, expect, it } from "vitest";
import { extractMainContent } from "../../../durable-objects/extractor/extract";
import { withPassesOff } from "../../../durable-objects/extractor/passes";

const SCHEMA = "https://schema.org";
const comment = (text: string, who: string) =>
  `<li itemprop="comment" itemscope itemtype="${SCHEMA}/Comment"><span class="score">3</span><span itemprop="text">${text}</span> – <a href="/u/${who}">${who}</a> <span>Commented Mar 4, 2021</span></li>`;
const comments = (...items: string[]) =>
  `<div class="side"><ul class="remarks">${items.join("")}</ul><div><a href="#">Add a comment</a></div></div>`;
const QUESTION = `<div itemprop="mainEntity" itemscope itemtype="${SCHEMA}/Question"><h1 itemprop="name">Why does the sourdough starter smell of nail polish?</h1><div itemprop="text"><p>My starter is ten days old and kept at room temperature. Since yesterday it smells sharply of nail polish remover and the rise has slowed down. Is it spoiled, or is this a stage it goes through?</p></div>${comments(
  comment("How often do you feed it, and with which flour?", "brioche"),
  comment("Twice a day, with whole rye.", "asker"),
)}</div>`;
const answer = (text: string, ...remarks: string[]) =>
  `<div itemprop="suggestedAnswer" itemscope itemtype="${SCHEMA}/Answer"><div itemprop="text"><p>${text}</p></div>${comments(...remarks)}</div>`;
const ANSWERS = [
  answer(
    "The smell is acetone-like byproducts of hungry yeast. The starter has eaten through its flour before the next feed: feed it more often, or feed it a larger share of fresh flour, and the smell fades in two or three days.",
    comment("This fixed mine within a day, thanks.", "levain"),
  ),
  answer(
    "Keep it a little cooler as well. At a warm room temperature the culture runs through its food in a few hours; a cooler spot slows it down so that two feeds a day are enough.",
    comment("Cooler also makes it more sour, fair warning.", "crumb"),
    comment("True, but sour beats nail polish.", "brioche"),
  ),
].join("");
const QA_PAGE = `<!doctype html><html><head><title>Sourdough smell</title></head><body itemscope itemtype="${SCHEMA}/QAPage"><div id="content">${QUESTION}<h2>2 Answers</h2>${ANSWERS}</div></body></html>`;

describe("comments under a Q&A page's posts", () => {
  it("keeps the question and the answers without the comments under them", () => {
    const { markdown } = extractMainContent(QA_PAGE, "https://qa.example/q/12");
    expect(markdown).toContain("Is it spoiled, or is this a stage it goes through?");
    expect(markdown).toContain("feed it a larger share of fresh flour");
    expect(markdown).toContain("a cooler spot slows it down");
    expect(markdown).not.toContain("How often do you feed it");
    expect(markdown).not.toContain("sour beats nail polish");
    expect(markdown).not.toContain("Add a comment");
    const without = withPassesOff(["qa-comments"], () =>
      extractMainContent(QA_PAGE, "https://qa.example/q/12"),
    );
    expect(without.markdown).toContain("sour beats nail polish");
  });

  it("keeps comments that are a thread's posts", () => {
    const post = (text: string, who: string) =>
      `<div itemprop="comment" itemscope itemtype="${SCHEMA}/Comment"><a href="/u/${who}">${who}</a> <time>Mar 4, 2021</time><p>${text}</p></div>`;
    const thread = `<!doctype html><html><head><title>Starters</title></head><body><div itemscope itemtype="${SCHEMA}/DiscussionForumPosting"><h1 itemprop="headline">Starters that smell</h1><p itemprop="text">What did your starter smell like in its second week, and did it pass?</p><section class="replies">${post("Mine smelled of acetone for three days, then settled once I fed it twice a day.", "levain")}${post("Mine smelled of old socks; it passed after I moved it off the warm shelf.", "crumb")}${post("Never noticed a smell at all, but I keep it in a cold pantry all year round.", "brioche")}</section></div></body></html>`;
    const { markdown } = extractMainContent(thread, "https://forum.example/t/7");
    expect(markdown).toContain("Mine smelled of old socks");
    expect(markdown).toContain("I keep it in a cold pantry");
  });
});
