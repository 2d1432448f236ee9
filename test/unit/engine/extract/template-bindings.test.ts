import { describe, expect, it } from "vitest";
import { dropTemplateBindings } from "../../../../durable-objects/engine/extract/template-bindings";

describe("unrendered template bindings", () => {
  it("drops lines that are only a binding a script would have filled in", () => {
    const markdown =
      "Thanks, that worked.\n\n**{{ DiscussionBoard.errors[11793116].message }}**\n\nNext post.";
    expect(dropTemplateBindings(markdown)).toBe("Thanks, that worked.\n\nNext post.");
  });

  it("keeps bindings inside code blocks and in running text", () => {
    const markdown = "Render it with `{{ form }}` in the page:\n\n```\n{{ form }}\n```";
    expect(dropTemplateBindings(markdown)).toBe(markdown);
  });
});
