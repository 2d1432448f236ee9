import { describe, expect, it } from "vitest";
import {
  completeWithFallback,
  fallbackChain,
  isTransientModelFailure,
  type ModelSwitch,
  RunModels,
} from "../../../../durable-objects/engine/model/fallback";
import { ModelError } from "../../../../durable-objects/engine/model/openai-client";

const down = new ModelError("model endpoint answered 503: down", "model_unavailable", 503);

describe("fallback models", () => {
  it("passes on the provider's failures only", () => {
    expect(isTransientModelFailure(down)).toBe(true);
    expect(isTransientModelFailure(new ModelError("429", "model_rate_limited", 429))).toBe(true);
    expect(isTransientModelFailure(new ModelError("lost", "model_unreachable"))).toBe(true);
    expect(isTransientModelFailure(new ModelError("timeout", "model_error", 408))).toBe(true);
    for (const [code, status] of [
      ["model_error", 400],
      ["model_auth_failed", 401],
      ["model_error", 404],
      ["cancelled", undefined],
      ["model_not_configured", undefined],
    ] as const)
      expect(isTransientModelFailure(new ModelError("x", code, status)), `${code} ${status}`).toBe(false);
    expect(isTransientModelFailure(new Error("plain"))).toBe(false);
  });

  it("tries each model once, in order", () => {
    expect(fallbackChain("a", ["b", "a", "c", "b"])).toEqual(["a", "b", "c"]);
    expect(fallbackChain("a")).toEqual(["a"]);
  });

  it("moves on until a model answers, telling each switch", async () => {
    const switches: ModelSwitch[] = [];
    const asked: string[] = [];
    const answer = await completeWithFallback({
      models: ["a", "b", "c"],
      call: async (m) => {
        asked.push(m);
        if (m !== "c") throw down;
        return "from c";
      },
      canSwitch: () => true,
      onSwitch: (s) => switches.push(s),
    });
    expect(answer).toBe("from c");
    expect(asked).toEqual(["a", "b", "c"]);
    expect(switches.map((s) => [s.from, s.to, s.reason])).toEqual([
      ["a", "b", "model_unavailable"],
      ["b", "c", "model_unavailable"],
    ]);
  });

  it("keeps the error when output was emitted, or the failure is the request's", async () => {
    const emitted = completeWithFallback({
      models: ["a", "b"],
      call: () => Promise.reject(down),
      canSwitch: () => false,
      onSwitch: () => expect.fail("no switch"),
    });
    await expect(emitted).rejects.toBe(down);
    const bad = new ModelError("bad", "model_error", 400);
    const refused = completeWithFallback({
      models: ["a", "b"],
      call: () => Promise.reject(bad),
      canSwitch: () => true,
      onSwitch: () => expect.fail("no switch"),
    });
    await expect(refused).rejects.toBe(bad);
  });

  it("fails with the last error naming every model tried", async () => {
    const last = new ModelError("model endpoint answered 502: gateway", "model_unavailable", 502);
    const all = completeWithFallback({
      models: ["a", "b"],
      call: (m) => Promise.reject(m === "a" ? down : last),
      canSwitch: () => true,
      onSwitch: () => {},
    });
    await expect(all).rejects.toMatchObject({
      code: "model_unavailable",
      status: 502,
      message: "model endpoint answered 502: gateway (models tried: a, b)",
    });
  });

  it("remembers each run's model, restoring it once after a restart", () => {
    let restores = 0;
    const models = new RunModels((runId) => {
      restores++;
      return runId === "run_old" ? "b" : null;
    });
    expect(models.of("run_old")).toBe("b");
    expect(models.of("run_new")).toBeNull();
    models.use("run_new", "c");
    expect(models.of("run_new")).toBe("c");
    expect(models.of("run_old")).toBe("b");
    expect(restores).toBe(2);
    models.forget("run_new");
    expect(models.of("run_new")).toBeNull();
  });
});
