import { describe, expect, it } from "vitest";
import type { DomElement } from "../../../../durable-objects/engine/extract/dom-types";
import {
  removeBreakpointTwins,
  screenCopies,
} from "../../../../durable-objects/engine/extract/breakpoint-twins";
import { removeTwinBlocks } from "../../../../durable-objects/engine/extract/twin-blocks";
import { afterPass } from "./fragment";

/** The pass as extraction runs it: measured by the twin-blocks walk first. */
function removeCopies(root: DomElement): void {
  const copies = screenCopies();
  removeTwinBlocks(root, copies.measured);
  removeBreakpointTwins(root, copies);
}
const count = (text: string, part: string) => text.split(part).length - 1;
const steps = (extra: string) =>
  `<h3>Plan together</h3><p>Draw the quarter on one board that every member of the team can edit at once${extra}.</p><h3>Ship on time</h3><p>See where each project stands with a weekly report sent to your inbox.</p>`;

describe("blocks printed once per screen size in other markup", () => {
  it("keeps the desktop copy of a section its phone layout rewords and wraps apart", () => {
    const html = afterPass(
      `<section><div class="benefits hide-laptop"><div>${steps(", wherever they are")}</div></div><div class="carousel show-laptop"><div class="track"><div class="slide">${steps("")}</div></div></div></section>`,
      removeCopies,
    );
    expect(count(html, "Draw the quarter")).toBe(1);
    expect(html).not.toContain("wherever they are");
    expect(html).toContain("show-laptop");
  });

  it("keeps the fuller of a site builder's breakpoint variants", () => {
    const html = afterPass(
      `<div class="ssr-variant hidden-a1"><div>${steps("")}</div></div><div class="ssr-variant hidden-b2"><div>${steps(" and comment")}</div></div>`,
      removeCopies,
    );
    expect(count(html, "Draw the quarter")).toBe(1);
    expect(html).toContain("and comment");
  });

  it("keeps alike items of a list and blocks that name no screen size", () => {
    const card = (city: string) =>
      `<div class="row hidden-xs"><h3>Tech conference in ${city}, California, United States, North America</h3></div>`;
    const html = afterPass(
      `${card("San Jose")}${card("San Diego")}<div class="intro">${steps("")}</div><div class="outro">${steps(" today")}</div>`,
      removeCopies,
    );
    expect(html).toContain("San Jose");
    expect(html).toContain("San Diego");
    expect(count(html, "Draw the quarter")).toBe(2);
  });

  it("keeps the items of a series alike in wording, one of them shown on desktops only", () => {
    const course = (name: string, cls: string) =>
      `<section class="${cls}"><h2>${name}</h2><p>The course runs for eight evenings in the computer lab, with a workbook, a certificate at the end and a tutor.</p></section>`;
    const html = afterPass(
      `${course("Photo Editing", "course")}${course("Video Basics", "course hidden-mobile")}${course("Page Layout", "course")}`,
      removeCopies,
    );
    for (const name of ["Photo Editing", "Video Basics", "Page Layout"]) expect(html).toContain(name);
  });
});
