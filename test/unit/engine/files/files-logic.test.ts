import { describe, expect, it } from "vitest";
import { filesConfig } from "../../../../durable-objects/engine/config/files-config";
import { fileLinkRoots } from "../../../../durable-objects/engine/config/keys-config";
import {
  isTextType,
  looksLikeText,
  typeForName,
} from "../../../../durable-objects/engine/files/content-types";
import { parseDataUrl } from "../../../../durable-objects/engine/files/data-url";
import { ancestors, normalizePath } from "../../../../durable-objects/engine/files/paths";
import { readTextWindow } from "../../../../durable-objects/engine/files/text-window";
import { partsOf } from "../../../../durable-objects/engine/files/workspace-files";
import { parseRange } from "../../../../worker/file-response";

const streamOf = (...chunks: string[]) =>
  new ReadableStream<Uint8Array>({
    start(c) {
      for (const s of chunks) c.enqueue(new TextEncoder().encode(s));
      c.close();
    },
  });

describe("normalizePath", () => {
  it("drops one leading and trailing slash and `.` segments, keeping case", () => {
    expect(normalizePath("/Docs/./Report.MD")).toBe("Docs/Report.MD");
    expect(normalizePath("a/b/")).toBe("a/b");
    expect(normalizePath("/", { allowRoot: true })).toBe("");
    expect(normalizePath("", { allowRoot: true })).toBe("");
  });

  it.each([
    ["..", '".."'],
    ["a/../b", '".."'],
    ["a//b", "empty"],
    ["//a", "empty"],
    ["a\tb", "control"],
    ["a\u007fb", "control"],
    [" a", "spaces"],
    ["a\\b", '"\\"'],
    ["é".repeat(128), "255 bytes"],
    ["", "file path"],
  ])("refuses %j (%s)", (raw, why) => {
    expect(() => normalizePath(raw)).toThrow(why);
  });

  it("lists ancestors outermost first", () => {
    expect(ancestors("a/b/c.txt")).toEqual(["a", "a/b"]);
    expect(ancestors("c.txt")).toEqual([]);
  });
});

describe("parseRange", () => {
  it.each([
    ["bytes=0-0", 10, { offset: 0, length: 1 }],
    ["bytes=9-", 10, { offset: 9, length: 1 }],
    ["bytes=-20", 10, { offset: 0, length: 10 }],
    ["bytes=3-2", 10, null],
    ["bytes=1-2,5-6", 10, null],
    [undefined, 10, null],
    ["bytes=0-", 0, "unsatisfiable"],
    ["bytes=-1", 0, "unsatisfiable"],
    ["bytes=10-12", 10, "unsatisfiable"],
  ] as const)("%s of %i bytes", (header, size, expected) => {
    expect(parseRange(header, size)).toEqual(expected);
  });
});

describe("readTextWindow", () => {
  it("counts lines across chunk boundaries, with or without a final newline", async () => {
    expect(await readTextWindow(streamOf("a\nb", "b\nc"), 2, 1)).toMatchObject({
      text: "bb",
      lines: 1,
      totalLines: 3,
    });
    expect(await readTextWindow(streamOf("a\nb\n"), 1, 10)).toMatchObject({ text: "a\nb", totalLines: 2 });
    expect(await readTextWindow(streamOf(""), 1, 10)).toMatchObject({ text: "", lines: 0, totalLines: 0 });
  });

  it("decodes multi-byte characters split between chunks", async () => {
    const bytes = new TextEncoder().encode("ü\n€");
    const s = new ReadableStream<Uint8Array>({
      start(c) {
        c.enqueue(bytes.subarray(0, 1));
        c.enqueue(bytes.subarray(1, 4));
        c.enqueue(bytes.subarray(4));
        c.close();
      },
    });
    expect((await readTextWindow(s, 1, 2)).text).toBe("ü\n€");
  });
});

describe("content types and data URLs", () => {
  it("guesses types from names and knows which are text", () => {
    expect(typeForName("a/b.JSON")).toBe("application/json; charset=utf-8");
    expect(typeForName("photo.png")).toBe("image/png");
    expect(typeForName("README")).toBe("text/plain; charset=utf-8");
    expect(isTextType("application/ld+json")).toBe(true);
    expect(isTextType("image/png")).toBe(false);
    expect(looksLikeText(new TextEncoder().encode("grüße"))).toBe(true);
    expect(looksLikeText(Uint8Array.from([0xff, 0xfe, 0x41]))).toBe(false);
  });

  it("parses data URLs and ignores ordinary text", () => {
    expect(parseDataUrl("data:image/gif;base64,R0lG")).toEqual({
      type: "image/gif",
      bytes: Uint8Array.from([0x47, 0x49, 0x46]),
    });
    expect(parseDataUrl("data:,a%2Cb")?.type).toBe("text/plain");
    expect(parseDataUrl("data is not a URL")).toBeNull();
    expect(() => parseDataUrl("data:image/png;base64,R")).toThrow("not valid base64");
  });
});

describe("partsOf and filesConfig", () => {
  it("re-chunks a stream into equal parts with a shorter last one", async () => {
    const parts: number[] = [];
    for await (const p of partsOf(streamOf("abcde", "fg", "hijklmn"), 4)) parts.push(p.length);
    expect(parts).toEqual([4, 4, 4, 2]);
  });

  it("reads limits from the environment and derives a link secret from the admin token", () => {
    expect(fileLinkRoots({ ADMIN_TOKEN: "t" })?.current).not.toBe("t");
    expect(fileLinkRoots({})).toBeNull();
    expect(
      fileLinkRoots({ FILES_SIGNING_SECRET: "s", ADMIN_TOKEN: "t", FILES_SIGNING_SECRET_PREVIOUS: "r,q" }),
    ).toEqual({
      current: "s",
      previous: ["r", "q", fileLinkRoots({ ADMIN_TOKEN: "t" })?.current],
    });
    const cfg = filesConfig({ FILES_MAX_FILE_BYTES: "10", FILES_LINK_TTL_SECONDS: "", ADMIN_TOKEN: "t" });
    expect(cfg.limits.maxFileBytes).toBe(10);
    expect(cfg.linkTtlSeconds).toBe(900);
    expect(() => filesConfig({ FILES_LINK_TTL_SECONDS: "bad" })).toThrow(
      'FILES_LINK_TTL_SECONDS must be a number (got "bad")',
    );
  });
});
