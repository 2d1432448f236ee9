import { describe, expect, it } from "vitest";
import { extractMainContent } from "../../../durable-objects/extractor/extract";

const FAQ = [
  [
    "What is an online certificate?",
    "A short course of study in one subject, finished at your own pace in a few hours, with a test at the end of each module.",
  ],
  [
    "Is the certificate free?",
    "Studying is free from the first lesson to the last; a printed copy of the certificate can be ordered once you pass the final test.",
  ],
  [
    "Who recognises it?",
    "Employers in many fields accept it as proof of the skills the course covers, and it can be listed on a CV or a profile.",
  ],
  [
    "How long does a course take?",
    "Most learners finish in two to three hours, spread over a morning or a few evenings, since every course is self-paced.",
  ],
  [
    "Can I take several courses?",
    "Yes: there is no limit, and each course you pass adds its own certificate to your learner record for good.",
  ],
];
const page = (faq: string) =>
  `<!doctype html><html><head><title>Courses</title></head><body><header class="site-header"><a href="/">Home</a></header><main><h1>Free certificate courses</h1><p>Our certificate courses give you job-role training and workplace skills in under three hours of study, all for free, whenever suits you.</p><div class="faqs"><h2>Frequently asked questions</h2>${faq}</div></main><footer><p>© 2026 Courses</p></footer></body></html>`;
const item = ([q, a]: string[], hidden: boolean) =>
  `<div class="in-page-faq"><div class="faq__question">${q}</div><div class="faq__answer"${hidden ? ' style="display: none;"' : ""}><div>${a}</div></div></div>`;

describe("FAQ answers hidden by style, named by class", () => {
  it("keeps the answers of an accordion whose items are only class-named question/answer pairs", () => {
    const { markdown } = extractMainContent(
      page(FAQ.map((f) => item(f, true)).join("")),
      "https://courses.example/",
    );
    for (const [q, a] of FAQ) {
      expect(markdown).toContain(q);
      expect(markdown).toContain(a);
    }
  });

  it("leaves out a lone hidden block after a class-named sibling (one toggle, not an accordion)", () => {
    const faq = FAQ.map((f, i) => item(f, i === 0)).join("");
    const { markdown } = extractMainContent(page(faq), "https://courses.example/");
    expect(markdown).not.toContain(FAQ[0][1]);
    expect(markdown).toContain(FAQ[1][1]);
  });
});
