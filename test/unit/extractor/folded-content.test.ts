import { describe, expect, it } from "vitest";
import { extractMainContent } from "../../../durable-objects/extractor/extract";
import { withPassesOff } from "../../../durable-objects/extractor/passes";

const page = (body: string) =>
  `<!doctype html><html><head><title>Boiler service</title></head><body><header class="site-header"><a href="/">Home</a></header><main>${body}</main><footer><p>© 2026 Example</p></footer></body></html>`;
const intro =
  "<h1>Boiler service</h1><p>Our engineers service every make of gas boiler, check the flue and the pressure, and leave a written report of what they found and what they fixed.</p><p>A visit is booked online for a morning or an afternoon slot, and the engineer calls half an hour before arriving at the door.</p>";

describe("text folded away until the reader opens it", () => {
  it("keeps the hidden panels of a tab set, not a hidden sign-in dialog", () => {
    const panel = (n: number, who: string, hidden: string) =>
      `<div role="tabpanel" aria-labelledby="t${n}"${hidden}><h3>${who}</h3><p>${who} book a yearly visit; the engineer checks the flue, the seals and the pressure, and the report arrives by email the same day.</p><p>${who} pay one fixed price for the visit, parts are quoted before any work starts, and a second visit within a month is free.</p></div>`;
    const html = page(
      `<h1>Boiler service</h1><p>Choose who you are.</p><div role="tablist"><button role="tab" id="t1">Homes</button><button role="tab" id="t2">Landlords</button><button role="tab" id="t3">Offices</button></div>${panel(1, "Homeowners", "")}${panel(2, "Landlords", " hidden")}${panel(3, "Offices", " hidden")}<div role="dialog" aria-labelledby="d1" hidden><h2 id="d1">Sign in</h2><p>Sign in to see your bookings.</p></div>`,
    );
    const { markdown } = extractMainContent(html, "https://heat.example/service");
    expect(markdown).toContain("### Landlords\n\nLandlords book a yearly visit;");
    expect(markdown).toContain("### Offices\n\nOffices book a yearly visit;");
    expect(markdown).not.toContain("Sign in to see your bookings");
    // Without the pass the folded panels go with the page's other hidden blocks: only the open tab is read.
    const off = withPassesOff(
      ["folded-panels"],
      () => extractMainContent(html, "https://heat.example/service").markdown,
    );
    expect(off).toContain("Homeowners book a yearly visit;");
    expect(off).not.toContain("Landlords book a yearly visit;");
    expect(off).not.toContain("Offices book a yearly visit;");
  });

  it("keeps a block a utility-class framework shows from a breakpoint up (`hidden md:block`)", () => {
    const html = page(
      `${intro}<div class="hidden md:block"><h2>Why us</h2><p>Every engineer is registered, insured and has serviced boilers for at least five years.</p></div><div class="hidden"><p>Mobile menu text that never shows.</p></div>`,
    );
    const { markdown } = extractMainContent(html, "https://heat.example/service");
    expect(markdown).toContain(
      "Every engineer is registered, insured and has serviced boilers for at least five years.",
    );
    expect(markdown).not.toContain("Mobile menu text");
  });

  it("keeps accordion panels whose collapse wrapper is what hides them (`display:none` on the panel's parent)", () => {
    const item = (n: number, q: string, a: string) =>
      `<button aria-controls="p${n}" id="b${n}">${q}</button><div class="collapse" style="overflow:hidden;display:none"><div role="region" id="p${n}" aria-labelledby="b${n}"><p>${a}</p></div></div>`;
    const html = page(
      `${intro}${item(1, "Parts", "Seals, valves and the pressure gauge are replaced at cost when they are worn.")}${item(2, "Report", "The written report lists every check, what was fixed and what to watch.")}<div style="display:none"><p>Promotional strip that never shows.</p></div>`,
    );
    const { markdown } = extractMainContent(html, "https://heat.example/service");
    expect(markdown).toContain(
      "Seals, valves and the pressure gauge are replaced at cost when they are worn.\n\nThe written report lists every check, what was fixed and what to watch.",
    );
    expect(markdown).not.toContain("Promotional strip");
  });
});
