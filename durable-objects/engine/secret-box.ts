/**
 * Encryption at rest for the workspace secret store: AES-GCM with a key derived (HKDF-SHA-256)
 * from SECRETS_KEY, else ADMIN_TOKEN; the workspace id and secret name are bound in as
 * additional data so a ciphertext cannot be moved to another workspace or name.
 */

/** Fixed HKDF salt/info: key separation from any other use of the same root secret. */
const HKDF_SALT = new TextEncoder().encode("cirrus/secret-store/v1");
const HKDF_INFO = new TextEncoder().encode("aes-256-gcm");
/** AES-GCM nonce length in bytes. */
const IV_BYTES = 12;

/** The root secrets a key can be derived from. */
export interface SecretKeyEnv {
  SECRETS_KEY?: string;
  ADMIN_TOKEN?: string;
}

/** Derives the AES-GCM key; throws when neither SECRETS_KEY nor ADMIN_TOKEN is set. */
export async function secretKey(env: SecretKeyEnv): Promise<CryptoKey> {
  const root = env.SECRETS_KEY || env.ADMIN_TOKEN;
  if (!root) throw new Error("Set SECRETS_KEY (or ADMIN_TOKEN) to use the secret store.");
  const base = await crypto.subtle.importKey("raw", new TextEncoder().encode(root), "HKDF", false, [
    "deriveKey",
  ]);
  return crypto.subtle.deriveKey(
    { name: "HKDF", hash: "SHA-256", salt: HKDF_SALT, info: HKDF_INFO },
    base,
    { name: "AES-GCM", length: 256 },
    false,
    ["encrypt", "decrypt"],
  );
}

/** Encrypts a value; the result is base64 of nonce + ciphertext. */
export async function sealSecret(key: CryptoKey, aad: string, value: string): Promise<string> {
  const iv = crypto.getRandomValues(new Uint8Array(IV_BYTES));
  const data = new Uint8Array(
    await crypto.subtle.encrypt(
      { name: "AES-GCM", iv, additionalData: new TextEncoder().encode(aad) },
      key,
      new TextEncoder().encode(value),
    ),
  );
  const out = new Uint8Array(IV_BYTES + data.length);
  out.set(iv);
  out.set(data, IV_BYTES);
  return toBase64(out);
}

/** Base64 of bytes, built in slices so large values (browser profiles) do not overflow the stack. */
function toBase64(bytes: Uint8Array): string {
  let bin = "";
  for (let i = 0; i < bytes.length; i += 0x8000) bin += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(bin);
}

/** Decrypts what {@link sealSecret} produced. */
export async function openSecret(key: CryptoKey, aad: string, sealed: string): Promise<string> {
  const raw = Uint8Array.from(atob(sealed), (c) => c.charCodeAt(0));
  const plain = await crypto.subtle.decrypt(
    { name: "AES-GCM", iv: raw.slice(0, IV_BYTES), additionalData: new TextEncoder().encode(aad) },
    key,
    raw.slice(IV_BYTES),
  );
  return new TextDecoder().decode(plain);
}
