/** RFC 6238 one-time codes (HMAC-SHA1, WebCrypto) from a base32 seed, for `kind: "totp"` secrets. */

const BASE32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";

/** The bytes of a base32 seed (spaces, dashes and padding ignored, any case); throws on other letters. */
export function base32Decode(seed: string): Uint8Array {
  const clean = seed.replace(/[\s-]/g, "").replace(/=+$/, "").toUpperCase();
  const out: number[] = [];
  let bits = 0;
  let acc = 0;
  for (const ch of clean) {
    const v = BASE32.indexOf(ch);
    if (v < 0) throw new TypeError("a TOTP seed must be base32 (A-Z, 2-7)");
    acc = (acc << 5) | v;
    bits += 5;
    if (bits >= 8) {
      bits -= 8;
      out.push((acc >>> bits) & 0xff);
    }
  }
  return new Uint8Array(out);
}

/** The code of a seed at `atMs` (epoch ms), `digits` long, for steps of `period` seconds. */
export async function totpCode(seed: string, atMs: number, digits = 6, period = 30): Promise<string> {
  const counter = Math.floor(atMs / 1000 / period);
  const message = new Uint8Array(8);
  new DataView(message.buffer).setBigUint64(0, BigInt(counter));
  const key = await crypto.subtle.importKey(
    "raw",
    base32Decode(seed),
    { name: "HMAC", hash: "SHA-1" },
    false,
    ["sign"],
  );
  const mac = new Uint8Array(await crypto.subtle.sign("HMAC", key, message));
  const offset = mac[mac.length - 1] & 0x0f;
  const binary =
    ((mac[offset] & 0x7f) << 24) | (mac[offset + 1] << 16) | (mac[offset + 2] << 8) | mac[offset + 3];
  return String(binary % 10 ** digits).padStart(digits, "0");
}
