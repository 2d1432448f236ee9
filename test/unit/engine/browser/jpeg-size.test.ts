import { describe, expect, it } from "vitest";
import { jpegSize } from "../../../../durable-objects/engine/browser/jpeg-size";

/** A minimal JPEG header: SOI, an APP0 segment, then SOF0 with the given size. */
function header(width: number, height: number): string {
  const bytes = [
    0xff,
    0xd8,
    0xff,
    0xe0,
    0x00,
    0x10,
    0x4a,
    0x46,
    0x49,
    0x46,
    0x00,
    0x01,
    0x01,
    0x00,
    0x00,
    0x01,
    0x00,
    0x01,
    0x00,
    0x00,
    0xff,
    0xc0,
    0x00,
    0x11,
    0x08,
    height >> 8,
    height & 255,
    width >> 8,
    width & 255,
    0x03,
    0x01,
    0x22,
    0x00,
    0x02,
    0x11,
    0x01,
    0x03,
    0x11,
    0x01,
  ];
  return btoa(String.fromCharCode(...bytes));
}

describe("jpegSize", () => {
  it("reads width and height from the start-of-frame marker", () => {
    expect(jpegSize(header(1280, 720))).toEqual({ width: 1280, height: 720 });
  });
  it("answers 0×0 for data that is not a JPEG", () => {
    expect(jpegSize(btoa("not a jpeg at all"))).toEqual({ width: 0, height: 0 });
  });
});
