/**
 * Signed file links: our equivalent of a browser's blob URL. A link names one file of one
 * workspace and an expiry, signed with HMAC-SHA256, so a browser or a page script can fetch
 * it without an API key: `GET /files/<payload>.<signature>`. Verification is constant-time
 * (crypto.subtle.verify) and checks the expiry.
 */

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

/** Signs and verifies links with one secret. */
export class LinkSigner {
  private cached: Promise<CryptoKey> | null = null;

  constructor(private readonly secret: string) {}

  /** The HMAC key, imported on first use (most tool sets never sign anything). */
  private get key(): Promise<CryptoKey> {
    this.cached ??= crypto.subtle.importKey(
      "raw",
      enc.encode(this.secret),
      { name: "HMAC", hash: "SHA-256" },
      false,
      ["sign", "verify"],
    );
    return this.cached;
  }

  /** A token for `claims`: base64url(JSON) + "." + base64url(HMAC). */
  async sign(claims: LinkClaims): Promise<string> {
    const payload = b64url(enc.encode(JSON.stringify(claims)));
    const mac = await crypto.subtle.sign("HMAC", await this.key, enc.encode(payload));
    return `${payload}.${b64url(new Uint8Array(mac))}`;
  }

  /** The claims of a valid, unexpired token, or why it is refused. */
  async verify(token: string, nowMs = Date.now()): Promise<LinkClaims | LinkRefusal> {
    const [payload, sig, extra] = token.split(".");
    const mac = sig === undefined || extra !== undefined ? null : fromB64url(sig);
    if (!payload || !mac) return "malformed";
    if (!(await crypto.subtle.verify("HMAC", await this.key, mac, enc.encode(payload))))
      return "bad_signature";
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
