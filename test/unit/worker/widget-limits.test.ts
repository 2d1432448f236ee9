import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { widgetLimits } from "../../../worker/widget-limits";

const toml = readFileSync(new URL("../../../wrangler.toml", import.meta.url), "utf8");

/** A `[vars]` value of wrangler.toml. */
function variable(name: string): string | undefined {
  return new RegExp(`^${name}\\s*=\\s*"([^"]*)"`, "m").exec(toml)?.[1];
}

/** The `simple = { limit, period }` of one `[[ratelimits]]` binding of wrangler.toml. */
function rateLimit(name: string): { limit: number; period: number } | undefined {
  const block = toml.split("[[ratelimits]]").find((b) => new RegExp(`name\\s*=\\s*"${name}"`).test(b));
  const simple = block && /simple\s*=\s*\{\s*limit\s*=\s*(\d+)\s*,\s*period\s*=\s*(\d+)\s*\}/.exec(block);
  return simple ? { limit: Number(simple[1]), period: Number(simple[2]) } : undefined;
}

const env = (vars: Record<string, string>) => vars as unknown as Env;

describe("widget rate limits", () => {
  it("state in the vars the same numbers the Rate Limiting bindings enforce", () => {
    const vars = widgetLimits(
      env({
        WIDGET_RATE_LIMIT_PER_KEY: variable("WIDGET_RATE_LIMIT_PER_KEY") ?? "",
        WIDGET_RATE_LIMIT_PER_VISITOR: variable("WIDGET_RATE_LIMIT_PER_VISITOR") ?? "",
        WIDGET_RATE_LIMIT_WINDOW_S: variable("WIDGET_RATE_LIMIT_WINDOW_S") ?? "",
      }),
    );
    expect(rateLimit("WIDGET_KEY_LIMITER")).toEqual({ limit: vars.perKey, period: vars.windowS });
    expect(rateLimit("WIDGET_VISITOR_LIMITER")).toEqual({ limit: vars.perVisitor, period: vars.windowS });
  });

  it("default to 600 per key and 60 per visitor a minute", () => {
    expect(widgetLimits(env({}))).toEqual({ perKey: 600, perVisitor: 60, windowS: 60 });
  });

  it("refuse a window the binding cannot count, naming the variable", () => {
    expect(() => widgetLimits(env({ WIDGET_RATE_LIMIT_WINDOW_S: "30" }))).toThrow(
      `WIDGET_RATE_LIMIT_WINDOW_S must be 10 or 60 (the Rate Limiting binding's periods) (got "30")`,
    );
    expect(() => widgetLimits(env({ WIDGET_RATE_LIMIT_PER_KEY: "lots" }))).toThrow(
      'WIDGET_RATE_LIMIT_PER_KEY must be a number (got "lots")',
    );
  });
});
