import { describe, expect, it } from "vitest";
import { createFileTools } from "../../../../durable-objects/engine/tools/files";

const texts = (confined?: boolean) =>
  createFileTools({ files: {} as never, links: null, confined }).map((t) => `${t.name}: ${t.description}`);

describe("the file tools' descriptions", () => {
  it("tell a visitor's model its paths stay in its own folder, and an owner's that the workspace is shared; each stays the same text every time", () => {
    const owner = texts();
    const visitor = texts(true);
    expect(owner.find((t) => t.startsWith("opfs_write"))).toContain("shared by all conversations and jobs");
    expect(visitor.find((t) => t.startsWith("opfs_write"))).toContain("your own folder of the workspace");
    expect(visitor.join("\n")).not.toContain("shared by all conversations");
    expect(owner.join("\n")).not.toContain("own folder");
    // Part of the prompt's stable prefix: no visitor id, nothing per run.
    expect(texts(true)).toEqual(visitor);
    expect(visitor.join("\n")).not.toMatch(/vis_|visitors\//);
  });
});
