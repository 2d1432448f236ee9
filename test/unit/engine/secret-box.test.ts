import { describe, expect, it } from "vitest";
import { browserConfig } from "../../../durable-objects/engine/config/browser-config";
import { openSecret, sealSecret, secretKey } from "../../../durable-objects/engine/secret-box";

describe("secret encryption at rest", () => {
  it("round-trips a value and hides it in the sealed form", async () => {
    const key = await secretKey({ SECRETS_KEY: "root-secret" });
    const sealed = await sealSecret(key, "ws-1/pw", "hunter2");
    expect(sealed).not.toContain("hunter2");
    expect(atob(sealed)).not.toContain("hunter2");
    expect(await openSecret(key, "ws-1/pw", sealed)).toBe("hunter2");
    expect(await sealSecret(key, "ws-1/pw", "hunter2")).not.toBe(sealed);
  });

  it("seals values of several megabytes (browser profiles) without overflowing the stack", async () => {
    const key = await secretKey({ SECRETS_KEY: "root-secret" });
    const big = "x".repeat(3 * 1024 * 1024);
    expect(
      await openSecret(key, "ws-1/browser-profile/p", await sealSecret(key, "ws-1/browser-profile/p", big)),
    ).toBe(big);
  });

  it("refuses a ciphertext moved to another workspace or opened with another key", async () => {
    const key = await secretKey({ SECRETS_KEY: "root-secret" });
    const sealed = await sealSecret(key, "ws-1/pw", "hunter2");
    await expect(openSecret(key, "ws-2/pw", sealed)).rejects.toThrow();
    const other = await secretKey({ ADMIN_TOKEN: "another-root" });
    await expect(openSecret(other, "ws-1/pw", sealed)).rejects.toThrow();
    await expect(secretKey({})).rejects.toThrow(/SECRETS_KEY/);
  });
});

describe("browser settings", () => {
  it("reads the idle limit and the private-network rule from the environment", () => {
    expect(browserConfig({ BROWSER_IDLE_MS: "5000", ALLOW_PRIVATE_NETWORK: "true" }, ["a.com"])).toEqual({
      idleMs: 5000,
      scriptTimeoutMs: 10_000,
      policy: { allowPrivateNetwork: true, allowedDomains: ["a.com"] },
    });
    expect(browserConfig({ BROWSER_IDLE_MS: "", PAGE_SCRIPT_TIMEOUT_MS: "2500" }, undefined)).toEqual({
      idleMs: 60_000,
      scriptTimeoutMs: 2500,
      policy: { allowPrivateNetwork: false, allowedDomains: null },
    });
    expect(() => browserConfig({ BROWSER_IDLE_MS: "nonsense" }, undefined)).toThrow(
      'BROWSER_IDLE_MS must be a number (got "nonsense")',
    );
  });
});
