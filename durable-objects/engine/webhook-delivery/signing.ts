/**
 * Standard Webhooks signatures (standardwebhooks.com): `webhook-id`, `webhook-timestamp` and
 * `webhook-signature: v1,<base64 HMAC-SHA256(key, "<id>.<timestamp>.<body>")>`, where the key is
 * the base64 part of the `whsec_…` secret. Receivers verify them with any Standard Webhooks library.
 */

/** Random bytes in a new secret (the spec asks for 24 to 64). */
const SECRET_BYTES = 32;

const toBase64 = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes));

/** A new `whsec_<base64>` signing secret. */
export function newWebhookSecret(): string {
  return `whsec_${toBase64(crypto.getRandomValues(new Uint8Array(SECRET_BYTES)))}`;
}

/** The HMAC key of a `whsec_` secret (URL-safe base64 from older secrets is accepted too). */
export function secretKeyBytes(secret: string): Uint8Array {
  const b64 = secret
    .replace(/^whsec_/, "")
    .replace(/-/g, "+")
    .replace(/_/g, "/");
  const padded = b64 + "=".repeat((4 - (b64.length % 4)) % 4);
  return Uint8Array.from(atob(padded), (c) => c.charCodeAt(0));
}

/** The `webhook-signature` value for one message. */
export async function standardSignature(
  secret: string,
  id: string,
  timestampS: number,
  body: string,
): Promise<string> {
  const key = await crypto.subtle.importKey(
    "raw",
    secretKeyBytes(secret),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign"],
  );
  const mac = await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(`${id}.${timestampS}.${body}`));
  return `v1,${toBase64(new Uint8Array(mac))}`;
}

/** The three Standard Webhooks headers for one message. */
export async function standardHeaders(
  secret: string,
  id: string,
  body: string,
  nowMs = Date.now(),
): Promise<Record<string, string>> {
  const ts = Math.floor(nowMs / 1000);
  return {
    "webhook-id": id,
    "webhook-timestamp": String(ts),
    "webhook-signature": await standardSignature(secret, id, ts, body),
  };
}
