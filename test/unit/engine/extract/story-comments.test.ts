import { describe, expect, it } from "vitest";
import { extractMainContent } from "../../../../durable-objects/engine/extract/extract";

const STORY = [
  "Elite computer science degrees are no longer a guaranteed on-ramp to tech jobs, as coding tools cut demand for entry-level engineers and hiring concentrates on a small pool of developers.",
  "Graduates of the best programmes describe a dreary mood on campus, where students who are job hunting are stressed out and many send hundreds of applications without an answer.",
  "Employers say they still hire juniors, but fewer of them, and they now ask for experience that used to be taught on the job in the first year after university.",
  "Professors expect the market to recover, though they advise students to build projects of their own and to learn the tools that companies have started to rely on.",
];
const COMMENT =
  "How are juniors supposed to be mentored and gain on-the-job experience to become the seniors of the future then? Nobody seems to have an answer to that, and it worries me a lot.";
const comments = (n: number) =>
  Array.from(
    { length: n },
    (_, i) =>
      `<li class="c"><div class="head"><a href="/c/${i}">Re: What could go wrong?</a> by <a href="/~u${i}">reader${i}</a></div><div class="body">${COMMENT} (${i})</div></li>`,
  ).join("");

describe("readers' comments under a story", () => {
  it("do not replace the story on a page that states no type, however long the discussion", () => {
    const html = `<!doctype html><html><head><title>Grads find degrees no longer guarantee jobs</title></head><body><div id="wrap"><article class="story"><h1>Grads find degrees no longer guarantee jobs</h1><div class="body">${STORY.map((p) => `<p>${p}</p>`).join("")}</div></article><ul id="commentlisting">${comments(30)}</ul></div></body></html>`;
    const { markdown } = extractMainContent(html, "https://news.example/story/25/12/19/grads");
    expect(markdown).toContain("no longer a guaranteed on-ramp to tech jobs");
    expect(markdown).toContain("build projects of their own");
    expect(markdown).not.toContain("How are juniors supposed to be mentored");
  });

  it("are still the page when what Readability took is no story (a short box beside a thread)", () => {
    const html = `<!doctype html><html><head><title>Thread</title></head><body><div id="wrap"><div class="about"><p>${STORY[0]}</p></div><ul id="commentlisting">${comments(30)}</ul></div></body></html>`;
    const { markdown } = extractMainContent(html, "https://forum.example/t/1");
    expect(markdown).toContain("How are juniors supposed to be mentored");
  });
});
