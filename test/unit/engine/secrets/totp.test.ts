import { describe, expect, it } from "vitest";
import { base32Decode, totpCode } from "../../../../durable-objects/engine/secrets/totp";

/** RFC 6238 appendix B: the SHA-1 key "12345678901234567890", 8 digits, 30 s steps. */
const RFC_SEED = "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ";
const VECTORS: [number, string][] = [
  [59, "94287082"],
  [1111111109, "07081804"],
  [1111111111, "14050471"],
  [1234567890, "89005924"],
  [2000000000, "69279037"],
  [20000000000, "65353130"],
];

describe("RFC 6238 one-time codes", () => {
  it("match the RFC's SHA-1 test vectors", async () => {
    for (const [seconds, code] of VECTORS) expect(await totpCode(RFC_SEED, seconds * 1000, 8)).toBe(code);
  });

  it("give 6-digit codes by default that change every period", async () => {
    expect(await totpCode(RFC_SEED, 59_000)).toBe("287082");
    expect(await totpCode(RFC_SEED, 60_000)).not.toBe(await totpCode(RFC_SEED, 59_000));
    expect(await totpCode(RFC_SEED, 59_000, 6, 60)).toBe(await totpCode(RFC_SEED, 0, 6, 60));
  });

  it("read base32 seeds in any case, with spaces and padding, and refuse other letters", () => {
    expect(new TextDecoder().decode(base32Decode("gezd gnbv gy3t qojq===="))).toBe("1234567890");
    expect(() => base32Decode("ABC1")).toThrow(/base32/);
  });
});
