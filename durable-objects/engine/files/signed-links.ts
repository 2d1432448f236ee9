/**
 * Signed file links: our equivalent of a browser's blob URL. A link names one file of one
 * workspace and an expiry, signed with HMAC-SHA256, so a browser or a page script can fetch
 * it without an API key: `GET /files/<payload>.<signature>`. Verification is constant-time
 * (crypto.subtle.verify) and checks the expiry. Links are signed with the current key and accepted
 * under any previous one (FILES_SIGNING_SECRET_PREVIOUS), so a rotation breaks no link before it expires.
 */
import type { KeyRoots } from "../config/keys-config";

/** Links are served under this path of the API's origin. */
export const LINK_PATH = "/files/";

/** What a link grants: reading one file until `exp` (epoch seconds). */
export interface LinkClaims {
  ws: string;
  path: string;
  exp: number;
}

/** Why a link was refused. */
export type LinkRefusal = "malformed" | "bad_signature" | "expired";

const enc = new TextEncoder();

function b64url(bytes: Uint8Array): string {
  let bin = "";
  for (const b of bytes) bin += String.fromCharCode(b);
  return btoa(bin).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function fromB64url(s: string): Uint8Array | null {
  if (!/^[A-Za-z0-9_-]*$/.test(s)) return null;
  try {
    const bin = atob(s.replace(/-/g, "+").replace(/_/g, "/"));
    return Uint8Array.from(bin, (c) => c.charCodeAt(0));
  } catch {
    return null;
  }
}

const hmacKey = (secret: string) =>
  crypto.subtle.importKey("raw", enc.encode(secret), { name: "HMAC", hash: "SHA-256" }, false, [
    "sign",
    "verify",
  ]);

/** Signs links with the current secret and verifies them with it or a previous one. */
export class LinkSigner {
  private cached: Promise<CryptoKey[]> | null = null;

  constructor(private readonly roots: KeyRoots) {}

  /** The HMAC keys, current first, imported on first use (most tool sets never sign anything). */
  private get keys(): Promise<CryptoKey[]> {
    this.cached ??= Promise.all([this.roots.current, ...this.roots.previous].map(hmacKey));
    return this.cached;
  }

  /** A token for `claims`: base64url(JSON) + "." + base64url(HMAC). */
  async sign(claims: LinkClaims): Promise<string> {
    const payload = b64url(enc.encode(JSON.stringify(claims)));
    const [current] = await this.keys;
    const mac = await crypto.subtle.sign("HMAC", current, enc.encode(payload));
    return `${payload}.${b64url(new Uint8Array(mac))}`;
  }

  private async signedByAny(mac: Uint8Array, payload: string): Promise<boolean> {
    for (const key of await this.keys) {
      if (await crypto.subtle.verify("HMAC", key, mac, enc.encode(payload))) return true;
    }
    return false;
  }

  /** The claims of a valid, unexpired token, or why it is refused. */
  async verify(token: string, nowMs = Date.now()): Promise<LinkClaims | LinkRefusal> {
    const [payload, sig, extra] = token.split(".");
    const mac = sig === undefined || extra !== undefined ? null : fromB64url(sig);
    if (!payload || !mac) return "malformed";
    if (!(await this.signedByAny(mac, payload))) return "bad_signature";
    const raw = fromB64url(payload);
    let claims: LinkClaims;
    try {
      claims = JSON.parse(new TextDecoder().decode(raw ?? new Uint8Array())) as LinkClaims;
    } catch {
      return "malformed";
    }
    if (typeof claims.ws !== "string" || typeof claims.path !== "string" || typeof claims.exp !== "number")
      return "malformed";
    return claims.exp * 1000 <= nowMs ? "expired" : claims;
  }
}

/** Makes signed links to one workspace's files. */
export interface FileLinks {
  /** A link to `path` that works without an API key until `expires_at` (epoch ms). */
  link(path: string): Promise<{ url: string; expires_at: number }>;
}

/** Links for a workspace: `<baseUrl>/files/<token>`, valid for `ttlSeconds`. */
export function createFileLinks(
  signer: LinkSigner,
  workspaceId: string,
  baseUrl: string,
  ttlSeconds: number,
): FileLinks {
  return {
    async link(path) {
      const exp = Math.floor(Date.now() / 1000) + ttlSeconds;
      const token = await signer.sign({ ws: workspaceId, path, exp });
      return { url: `${baseUrl}${LINK_PATH}${token}`, expires_at: exp * 1000 };
    },
  };
}
