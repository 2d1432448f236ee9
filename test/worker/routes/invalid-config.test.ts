import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it } from "vitest";
import { api } from "../helpers";

const vars = env as unknown as Record<string, unknown>;
const saved = { MAX_STEPS: vars.MAX_STEPS, PAGE_SCRIPT_TIMEOUT_MS: vars.PAGE_SCRIPT_TIMEOUT_MS };

describe("an invalid configuration", () => {
  afterEach(() => Object.assign(vars, saved));

  it("answers every request with a 503 naming the variable, and recovers once it is fixed", async () => {
    vars.MAX_STEPS = "lots";
    vars.PAGE_SCRIPT_TIMEOUT_MS = "90000";
    for (const path of ["/v1/conversations", "/openapi.json", "/v1/nope"]) {
      const res = await api(path);
      expect(res.status, path).toBe(503);
      const body = (await res.json()) as { error: { code: string; message: string } };
      expect(body.error.code, path).toBe("invalid_config");
      expect(body.error.message, path).toBe(
        'Invalid configuration: MAX_STEPS must be a number (got "lots"); PAGE_SCRIPT_TIMEOUT_MS must be at most 60000 (got "90000").',
      );
      expect(body.error.message).not.toContain("test-admin-token");
    }
    Object.assign(vars, saved);
    expect((await api("/v1/conversations")).status).toBe(200);
  });
});
