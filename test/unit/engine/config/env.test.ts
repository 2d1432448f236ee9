import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { EnvVars, readEnv } from "../../../../durable-objects/engine/config/env";
import { ConfigError } from "../../../../durable-objects/engine/errors";

/** The error readEnv throws for these vars. */
function refusal(vars: Record<string, unknown>): ConfigError {
  try {
    readEnv(vars);
  } catch (err) {
    return err as ConfigError;
  }
  throw new Error("readEnv accepted invalid vars");
}

describe("the environment schema", () => {
  it("gives every variable its documented default when unset or empty", () => {
    const vars = readEnv({ MAX_STEPS: "", OPENAI_MODEL: "  " });
    expect(vars).toMatchObject({
      OPENAI_MODEL: "gpt-4o-mini",
      WORKERS_AI_MODEL: "@cf/meta/llama-3.3-70b-instruct-fp8-fast",
      MAX_STEPS: 50,
      SUB_AGENT_MAX_STEPS: 20,
      TOOL_TIMEOUT_MS: 120_000,
      MAX_RESULT_CHARS: 50_000,
      TOOL_RETRY_BUDGET: 3,
      MODEL_CONTEXT_TOKENS: 128_000,
      MODEL_FALLBACKS: [],
      MODEL_RETRY_ATTEMPTS: 5,
      MODEL_RETRY_BASE_DELAY_MS: 500,
      MODEL_RETRY_MAX_DELAY_MS: 60_000,
      ASK_USER_TIMEOUT_MS: 300_000,
      SSE_HEARTBEAT_MS: 15_000,
      RUN_WATCHDOG_MS: 3_000,
      ALLOW_PRIVATE_NETWORK: false,
      BROWSER_IDLE_MS: 60_000,
      BROWSER_MAX_SESSIONS: 3,
      BROWSER_CONTEXTS_PER_SESSION: 8,
      BROWSER_LAUNCH_INTERVAL_MS: 20_000,
      BROWSER_DAILY_MINUTES: 10,
      BROWSER_QUEUE_TIMEOUT_MS: 60_000,
      BROWSER_HOUR_PRICE_USD: 0.09,
      PAGE_SCRIPT_TIMEOUT_MS: 10_000,
      WEB_FETCH_TIMEOUT_MS: 30_000,
      WEB_FETCH_MAX_BYTES: 5 * 1024 * 1024,
      WEB_SEARCH_TIMEOUT_MS: 15_000,
      FILES_MAX_FILE_BYTES: 100 * 1024 * 1024,
      FILES_MAX_WORKSPACE_BYTES: 1024 * 1024 * 1024,
      FILES_LINK_TTL_SECONDS: 900,
      JOB_POLL_MS: 60_000,
      JOB_WEBHOOK_RETRY_BASE_MS: 30_000,
      WIDGET_RATE_LIMIT_PER_KEY: 600,
      WIDGET_RATE_LIMIT_PER_VISITOR: 60,
      WIDGET_RATE_LIMIT_WINDOW_S: 60,
    });
    expect(vars.PUBLIC_BASE_URL).toBeUndefined();
    expect(vars.ADMIN_TOKEN).toBeUndefined();
  });

  it("reads set values, ignoring bindings and names it does not know", () => {
    const vars = readEnv({
      MAX_STEPS: "12",
      ALLOW_PRIVATE_NETWORK: "true",
      PUBLIC_BASE_URL: "https://agents.example.com/",
      WIDGET_RATE_LIMIT_WINDOW_S: "10",
      MODEL_FALLBACKS: " gpt-4o , openai/gpt-4.1-mini,",
      FILES: { put() {} },
      SOMETHING_ELSE: "x",
    });
    expect(vars.MAX_STEPS).toBe(12);
    expect(vars.ALLOW_PRIVATE_NETWORK).toBe(true);
    expect(vars.PUBLIC_BASE_URL).toBe("https://agents.example.com");
    expect(vars.WIDGET_RATE_LIMIT_WINDOW_S).toBe(10);
    expect(vars.MODEL_FALLBACKS).toEqual(["gpt-4o", "openai/gpt-4.1-mini"]);
    expect(Object.keys(vars)).not.toContain("FILES");
  });

  it("refuses invalid values with one error naming every bad variable", () => {
    const err = refusal({
      MAX_STEPS: "abc",
      TOOL_TIMEOUT_MS: "1.5",
      RUN_WATCHDOG_MS: "-1",
      PAGE_SCRIPT_TIMEOUT_MS: "90000",
      WIDGET_RATE_LIMIT_WINDOW_S: "30",
      PUBLIC_BASE_URL: "ftp://files.example.com",
      ALLOW_PRIVATE_NETWORK: "maybe",
      MODEL_FALLBACKS: "a,b,c,d",
    });
    expect(err).toBeInstanceOf(ConfigError);
    expect(err.name).toBe("ConfigError");
    expect(err.code).toBe("invalid_config");
    expect(err.message).toContain('MAX_STEPS must be a number (got "abc")');
    expect(err.message).toContain('TOOL_TIMEOUT_MS must be a whole number (got "1.5")');
    expect(err.message).toContain('RUN_WATCHDOG_MS must be above 0 (got "-1")');
    expect(err.message).toContain('PAGE_SCRIPT_TIMEOUT_MS must be at most 60000 (got "90000")');
    expect(err.message).toContain("WIDGET_RATE_LIMIT_WINDOW_S must be 10 or 60");
    expect(err.message).toContain("PUBLIC_BASE_URL must be an absolute http(s) URL");
    expect(err.message).toContain("ALLOW_PRIVATE_NETWORK must be true or false");
    expect(err.message).toContain("MODEL_FALLBACKS must name at most 3 models");
  });

  it("never repeats a secret's value in its error", () => {
    const err = refusal({ ADMIN_TOKEN: 12345678, MAX_STEPS: "0" });
    expect(err.message).toContain("ADMIN_TOKEN");
    expect(err.message).not.toContain("12345678");
  });

  it("covers exactly the variables docs/configuration.md documents", () => {
    const readme = readFileSync(new URL("../../../../docs/configuration.md", import.meta.url), "utf8");
    const table = readme.slice(readme.indexOf("# Configuration"), readme.indexOf("Every var above"));
    const documented = new Set<string>();
    for (const row of table.split("\n").filter((l) => l.startsWith("| `"))) {
      let stem = "";
      for (const [, name] of row.split("|")[1].matchAll(/`([A-Z_]+)`/g)) {
        // `WIDGET_RATE_LIMIT_PER_KEY`, `_PER_VISITOR`: a leading "_" continues the previous name's stem.
        const full = name.startsWith("_") ? stem + name : name;
        if (!name.startsWith("_")) stem = name.replace(/_[A-Z]+_[A-Z]+$/, "");
        documented.add(full);
      }
    }
    expect([...documented].sort()).toEqual(Object.keys(EnvVars.shape).sort());
  });
});
