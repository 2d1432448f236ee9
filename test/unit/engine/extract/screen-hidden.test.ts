import { describe, expect, it } from "vitest";
import { extractMainContent } from "../../../../durable-objects/engine/extract/extract";

const course = (name: string, hidden: string) =>
  `<section class="elementor-section ${hidden}"><h2>${name}</h2><p>${name} runs for eight evenings in the computer lab, with a workbook, a certificate at the end and a tutor who answers questions between classes by email.</p></section>`;

describe("blocks hidden at every screen width", () => {
  it("drops a section hidden on desktops and phones, keeps one hidden on phones only", () => {
    const hiddenEverywhere = "elementor-hidden-desktop elementor-hidden-tablet elementor-hidden-mobile";
    const html = `<!doctype html><html><head><title>Courses</title></head><body><main><h1>Design courses</h1>
      ${course("Photo Editing", "")}${course("Video Basics", "elementor-hidden-mobile")}${course("Draft Course", hiddenEverywhere)}${course("Page Layout", "")}
      </main></body></html>`;
    const { markdown } = extractMainContent(html, "https://school.example/design");
    for (const name of ["Photo Editing", "Video Basics", "Page Layout"])
      expect(markdown).toContain(`${name} runs for eight evenings`);
    expect(markdown).not.toContain("Draft Course");
  });
});
