/**
 * Encryption at rest for the workspace secret store, browser profiles, MCP credentials and webhook
 * secrets: AES-GCM with a key derived (HKDF-SHA-256) from SECRETS_KEY (else ADMIN_TOKEN); the
 * workspace id and name are bound in as additional data so a ciphertext cannot be moved to another
 * workspace or name. Each sealed value starts with the id of the key that sealed it
 * (`<key id>:<base64>`), so after a rotation it is opened with the previous key it names
 * (SECRETS_KEY_PREVIOUS); values sealed before key ids are tried against every configured key.
 */
import { type KeyRoots, secretStoreRoots } from "./config/keys-config";

/** Fixed HKDF salt/info: key separation from any other use of the same root secret. */
const HKDF_SALT = new TextEncoder().encode("cirrus/secret-store/v1");
const HKDF_INFO = new TextEncoder().encode("aes-256-gcm");
/** What a key id is a hash of, besides the root: an id never equals a hash used elsewhere. */
const KEY_ID_LABEL = "cirrus/secret-store/key-id/v1:";
/** AES-GCM nonce length in bytes. */
const IV_BYTES = 12;

/** One derived key and its id (16 hex digits of a hash of its root: it names, never reveals, the key). */
export interface SealingKey {
  id: string;
  key: CryptoKey;
}

/** The key new values are sealed with, and the older ones values may still be sealed with. */
export interface SecretKeyring {
  current: SealingKey;
  previous: SealingKey[];
}

/** A value sealed under a key that is no longer configured. */
export class UnknownSealingKey extends Error {
  constructor(readonly keyId: string) {
    super(
      `This value was sealed with key ${keyId}, which is not configured: add that key to SECRETS_KEY_PREVIOUS.`,
    );
    this.name = new.target.name;
  }
}

const derived = new Map<string, Promise<SealingKey>>();

async function deriveKey(root: string): Promise<SealingKey> {
  const bytes = new TextEncoder().encode(root);
  const base = await crypto.subtle.importKey("raw", bytes, "HKDF", false, ["deriveKey"]);
  const key = await crypto.subtle.deriveKey(
    { name: "HKDF", hash: "SHA-256", salt: HKDF_SALT, info: HKDF_INFO },
    base,
    { name: "AES-GCM", length: 256 },
    false,
    ["encrypt", "decrypt"],
  );
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(KEY_ID_LABEL + root));
  const id = [...new Uint8Array(digest).slice(0, 8)].map((b) => b.toString(16).padStart(2, "0")).join("");
  return { id, key };
}

/** The keyring of some roots (each root's key derived once per isolate). */
export async function keyringOf(roots: KeyRoots): Promise<SecretKeyring> {
  const of = (root: string) => {
    const known = derived.get(root);
    if (known) return known;
    const key = deriveKey(root);
    derived.set(root, key);
    return key;
  };
  const [current, ...previous] = await Promise.all([roots.current, ...roots.previous].map(of));
  return { current, previous };
}

/** The deployment's keyring; throws ConfigError (503 invalid_config) when no key is configured. */
export async function secretKeyring(env: object): Promise<SecretKeyring> {
  return keyringOf(secretStoreRoots(env));
}

/** The id of the key a value was sealed with; null for a value sealed before key ids. */
export function sealedKeyId(sealed: string): string | null {
  const colon = sealed.indexOf(":");
  return colon < 0 ? null : sealed.slice(0, colon);
}

/** Encrypts a value with the current key: `<key id>:` + base64 of nonce + ciphertext. */
export async function sealSecret(ring: SecretKeyring, aad: string, value: string): Promise<string> {
  const { id, key } = ring.current;
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
  return `${id}:${toBase64(out)}`;
}

/** Base64 of bytes, built in slices so large values (browser profiles) do not overflow the stack. */
function toBase64(bytes: Uint8Array): string {
  let bin = "";
  for (let i = 0; i < bytes.length; i += 0x8000) bin += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(bin);
}

/** Decrypts what {@link sealSecret} produced, with the key it names (any key for an unnamed one). */
export async function openSecret(ring: SecretKeyring, aad: string, sealed: string): Promise<string> {
  const keyId = sealedKeyId(sealed);
  const keys = [ring.current, ...ring.previous];
  if (keyId === null) return openWithAny(keys, aad, sealed);
  const named = keys.find((k) => k.id === keyId);
  if (!named) throw new UnknownSealingKey(keyId);
  return decrypt(named.key, aad, sealed.slice(keyId.length + 1));
}

/** A value sealed before key ids: the first configured key that authenticates it. */
async function openWithAny(keys: SealingKey[], aad: string, sealed: string): Promise<string> {
  let failure: unknown;
  for (const { key } of keys) {
    try {
      return await decrypt(key, aad, sealed);
    } catch (err) {
      failure = err;
    }
  }
  throw failure;
}

async function decrypt(key: CryptoKey, aad: string, b64: string): Promise<string> {
  const raw = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
  const plain = await crypto.subtle.decrypt(
    { name: "AES-GCM", iv: raw.slice(0, IV_BYTES), additionalData: new TextEncoder().encode(aad) },
    key,
    raw.slice(IV_BYTES),
  );
  return new TextDecoder().decode(plain);
}
