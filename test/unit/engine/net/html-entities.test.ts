import { describe, expect, it } from "vitest";
import { decodeEntities } from "../../../../durable-objects/engine/net/html-entities";

describe("decodeEntities", () => {
  it("decodes named, decimal and hex references", () => {
    expect(decodeEntities("Tom&apos;s &amp; Jerry&#39;s &quot;mug&quot; &#x2014; &lt;b&gt;")).toBe(
      "Tom's & Jerry's \"mug\" — <b>",
    );
  });

  it("leaves unknown names and numbers that name no character as they are, instead of throwing", () => {
    expect(decodeEntities("&copy2; &bogus; &#99999999; &#x110000;")).toBe(
      "&copy2; &bogus; &#99999999; &#x110000;",
    );
  });
});
