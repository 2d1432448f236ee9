/**
 * The fetch an MCP connection (./connection.ts) hands its transports: the SSRF guard on every URL,
 * the current credentials on every request, and the RFC 9728 metadata URL a 401 names reported.
 */
import { assertFetchable } from "../net/ssrf";

/** What the guarded fetch is built from. */
export interface GuardedFetchOptions {
  base: typeof fetch;
  allowPrivateNetwork: boolean;
  /** The credentials to send now (read at each request: they are replaced after a 401). */
  headers(): Record<string, string>;
  onResourceMetadata?(url: string): void;
}

/** fetch with the SSRF guard on every URL and the current credentials on every request. */
export function guardedFetch(o: GuardedFetchOptions): typeof fetch {
  // Called unbound: Workers' fetch refuses to run as a method of another object.
  const base = o.base;
  return (async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    assertFetchable(url, { allowPrivateNetwork: o.allowPrivateNetwork });
    const headers = new Headers(init?.headers);
    for (const [k, v] of Object.entries(o.headers())) headers.set(k, v);
    const res = await base(url.href, { ...init, headers });
    if (res.status === 401) {
      const named = /resource_metadata="([^"]+)"/.exec(res.headers.get("www-authenticate") ?? "")?.[1];
      if (named) o.onResourceMetadata?.(named);
    }
    return res;
  }) as typeof fetch;
}
