import { describe, expect, it } from "vitest";
import { IsolateCache } from "../../../worker/isolate-cache";

describe("the per-isolate cache", () => {
  it("serves an entry until its time to live ends, then forgets it", () => {
    const cache = new IsolateCache<string>(10);
    cache.set("k", "v", 1_000, 5_000);
    expect(cache.get("k", 5_999)).toBe("v");
    expect(cache.get("k", 6_000)).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it("keeps at most its number of entries, dropping the one written longest ago", () => {
    const cache = new IsolateCache<number>(3);
    for (const [i, key] of ["a", "b", "c"].entries()) cache.set(key, i, 60_000, 0);
    cache.set("a", 10, 60_000, 1); // rewritten: now the newest
    cache.set("d", 3, 60_000, 2);
    expect(cache.size).toBe(3);
    expect(cache.get("b", 3)).toBeUndefined();
    expect([cache.get("a", 3), cache.get("c", 3), cache.get("d", 3)]).toEqual([10, 2, 3]);
  });

  it("caches a refusal (null) as an answer, and forgets entries on request", () => {
    const cache = new IsolateCache<{ ws: string } | null>(10);
    cache.set("missing", null, 1_000, 0);
    cache.set("x", { ws: "w1" }, 1_000, 0);
    cache.set("y", { ws: "w2" }, 1_000, 0);
    expect(cache.get("missing", 1)).toBeNull();
    cache.deleteWhere((v) => v?.ws === "w1");
    expect(cache.get("x", 1)).toBeUndefined();
    expect(cache.get("y", 1)).toEqual({ ws: "w2" });
    cache.delete("y");
    expect(cache.get("y", 1)).toBeUndefined();
  });
});
