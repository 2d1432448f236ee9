import { describe, expect, it } from "vitest";
import { browserConfig } from "../../../durable-objects/engine/config/browser-config";
import { ConfigError } from "../../../durable-objects/engine/errors";
import {
  keyringOf,
  openSecret,
  sealedKeyId,
  sealSecret,
  secretKeyring,
  UnknownSealingKey,
} from "../../../durable-objects/engine/secret-box";

describe("secret encryption at rest", () => {
  it("round-trips a value, hides it in the sealed form and names the key it used", async () => {
    const ring = await secretKeyring({ SECRETS_KEY: "root-secret" });
    const sealed = await sealSecret(ring, "ws-1/pw", "hunter2");
    expect(sealed).not.toContain("hunter2");
    expect(atob(sealed.slice(sealed.indexOf(":") + 1))).not.toContain("hunter2");
    expect(sealedKeyId(sealed)).toMatch(/^[0-9a-f]{16}$/);
    expect(sealedKeyId(sealed)).toBe(ring.current.id);
    expect(sealed).not.toContain("root-secret");
    expect(await openSecret(ring, "ws-1/pw", sealed)).toBe("hunter2");
    expect(await sealSecret(ring, "ws-1/pw", "hunter2")).not.toBe(sealed);
  });

  it("seals values of several megabytes (browser profiles) without overflowing the stack", async () => {
    const ring = await secretKeyring({ SECRETS_KEY: "root-secret" });
    const big = "x".repeat(3 * 1024 * 1024);
    expect(
      await openSecret(ring, "ws-1/browser-profile/p", await sealSecret(ring, "ws-1/browser-profile/p", big)),
    ).toBe(big);
  });

  it("refuses a ciphertext moved to another workspace or opened with another key", async () => {
    const ring = await secretKeyring({ SECRETS_KEY: "root-secret" });
    const sealed = await sealSecret(ring, "ws-1/pw", "hunter2");
    await expect(openSecret(ring, "ws-2/pw", sealed)).rejects.toThrow();
    const other = await secretKeyring({ ADMIN_TOKEN: "another-root" });
    await expect(openSecret(other, "ws-1/pw", sealed)).rejects.toThrow(UnknownSealingKey);
  });
});

describe("rotating SECRETS_KEY", () => {
  it("reads a value sealed under the previous key and seals the next write with the new one", async () => {
    const before = await secretKeyring({ SECRETS_KEY: "key-one" });
    const sealed = await sealSecret(before, "ws-1/pw", "hunter2");
    const after = await secretKeyring({
      SECRETS_KEY: "key-two",
      SECRETS_KEY_PREVIOUS: " key-zero , key-one ",
    });
    expect(after.previous.map((k) => k.id)).toContain(before.current.id);
    expect(await openSecret(after, "ws-1/pw", sealed)).toBe("hunter2");
    const rewritten = await sealSecret(after, "ws-1/pw", "hunter2");
    expect(sealedKeyId(rewritten)).toBe(after.current.id);
    expect(sealedKeyId(rewritten)).not.toBe(before.current.id);
    const dropped = await secretKeyring({ SECRETS_KEY: "key-two" });
    expect(await openSecret(dropped, "ws-1/pw", rewritten)).toBe("hunter2");
    await expect(openSecret(dropped, "ws-1/pw", sealed)).rejects.toThrow(
      `This value was sealed with key ${before.current.id}, which is not configured: add that key to SECRETS_KEY_PREVIOUS.`,
    );
  });

  it("keeps values sealed before key ids under the ADMIN_TOKEN fallback readable once SECRETS_KEY is set", async () => {
    const legacyRing = await keyringOf({ current: "the-admin-token", previous: [] });
    const withId = await sealSecret(legacyRing, "ws-1/pw", "hunter2");
    const legacy = withId.slice(withId.indexOf(":") + 1);
    expect(sealedKeyId(legacy)).toBeNull();
    const now = await secretKeyring({ SECRETS_KEY: "own-key", ADMIN_TOKEN: "the-admin-token" });
    expect(await openSecret(now, "ws-1/pw", legacy)).toBe("hunter2");
    // After the admin token itself rotated, the old one in SECRETS_KEY_PREVIOUS still opens them.
    const rotated = await secretKeyring({
      SECRETS_KEY: "own-key",
      ADMIN_TOKEN: "new-admin-token",
      SECRETS_KEY_PREVIOUS: "the-admin-token",
    });
    expect(await openSecret(rotated, "ws-1/pw", legacy)).toBe("hunter2");
    await expect(
      openSecret(await secretKeyring({ SECRETS_KEY: "own-key" }), "ws-1/pw", legacy),
    ).rejects.toThrow();
  });

  it("is a 503 invalid_config naming SECRETS_KEY, never a value, when no key is configured", async () => {
    const err = await secretKeyring({ SECRETS_KEY_PREVIOUS: "old-secret-value" }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConfigError);
    expect((err as ConfigError).code).toBe("invalid_config");
    expect((err as ConfigError).message).toContain("SECRETS_KEY is not set (nor ADMIN_TOKEN, its fallback)");
    expect((err as ConfigError).message).not.toContain("old-secret-value");
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
