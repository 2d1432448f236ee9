import { describe, expect, it } from "vitest";
import { removeInactiveLinkTabs } from "../../../../durable-objects/engine/extract/inactive-tabs";
import { afterPass } from "./fragment";

const links = (prefix: string) =>
  `<ol>${[1, 2, 3, 4, 5].map((n) => `<li><h5><a href="/news/${prefix}-${n}">${prefix} story number ${n} of the period</a></h5></li>`).join("")}</ol>`;
const tabs = (panel: (title: string) => string) =>
  `<div class="tabs"><ul class="tab__switcher"><li>7 days</li><li>1 month</li><li>3 months</li></ul><div class="tab active">${panel("Week")}</div><div class="tab">${panel("Month")}</div><div class="tab">${panel("Quarter")}</div></div>`;

/** The content after the rule, as HTML. */
const cleaned = (html: string) => afterPass(html, removeInactiveLinkTabs);

describe("hidden panels of a tab set of link lists", () => {
  it("keeps the panel marked active and drops its siblings", () => {
    const html = cleaned(`<h2>Trending</h2>${tabs(links)}`);
    expect(html).toContain("Week story number 3");
    expect(html).not.toContain("Month story");
    expect(html).not.toContain("Quarter story");
  });

  it("keeps every panel of prose tabs, and tab sets whose panels are not marked", () => {
    const prose = (t: string) =>
      `<p>${t}: our team plans the whole project with you, from the first visit to the last inspection, and <a href="/contact">calls you</a> each week.</p>`;
    const html = cleaned(tabs(prose));
    for (const t of ["Week", "Month", "Quarter"]) expect(html).toContain(`${t}: our team`);
    const unmarked = cleaned(tabs(links).replace("tab active", "tab"));
    for (const t of ["Week", "Month", "Quarter"]) expect(unmarked).toContain(`${t} story number 1`);
  });
});
