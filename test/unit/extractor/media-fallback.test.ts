import { describe, expect, it } from "vitest";
import { extractMainContent } from "../../../durable-objects/extractor/extract";

describe("video and audio", () => {
  it("leaves out the fallback text a browser shows only when it cannot play the media", () => {
    const html = `<!doctype html><html><head><title>Standing desks</title></head><body><main><h1>Standing desks</h1><video autoplay muted><source src="/desk.mp4" type="video/mp4">Your player cannot show this clip.</video><p>Desks that rise from sitting to standing height at the press of a button, with two motors and a frame of welded steel.</p><audio controls src="/hum.mp3">Audio is not available here.</audio><p>Each desk remembers four heights and carries up to one hundred and fifty kilograms.</p></main></body></html>`;
    const { markdown } = extractMainContent(html, "https://desks.example/c/standing");
    expect(markdown).toBe(
      "# Standing desks\n\nDesks that rise from sitting to standing height at the press of a button, with two motors and a frame of welded steel.\n\nEach desk remembers four heights and carries up to one hundred and fifty kilograms.",
    );
  });
});
