import { describe, expect, it } from "vitest";
import {
  CONVERSATION_ID,
  checkedId,
  InvalidObjectId,
  JOB_ID,
  scopedName,
} from "../../../durable-objects/addresses/ids";

describe("object addresses", () => {
  it("names an object inside its workspace", () => {
    expect(scopedName("ws-1a2b", "conversation", CONVERSATION_ID, "conv_42")).toBe("ws-1a2b/conv_42");
    expect(scopedName("default", "job", JOB_ID, "job_x")).toBe("default/job_x");
  });

  it("refuses ids that could reach another workspace's objects or name nothing", () => {
    // A slash in either part would let `a` + `b/c` collide with `a/b` + `c`.
    for (const [ws, id] of [
      ["a/b", "c"],
      ["a", "b/c"],
      ["", "c"],
      ["a", ""],
      ["a", "x".repeat(101)],
      ["a", "conv 1"],
      ["a", "%2F"],
    ]) {
      expect(() => scopedName(ws, "conversation", CONVERSATION_ID, id)).toThrow(InvalidObjectId);
    }
    expect(() => checkedId("job", JOB_ID, "conv_1")).toThrow(/No job "conv_1"/);
  });

  it("carries the API's not_found code", () => {
    const err = (() => {
      try {
        checkedId("job", JOB_ID, "nope");
      } catch (e) {
        return e as InvalidObjectId;
      }
    })();
    expect(err?.code).toBe("not_found");
  });
});
