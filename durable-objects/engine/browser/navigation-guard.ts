/**
 * Where the browser may go. The address rules (http(s) only, no embedded credentials, no private
 * or local hosts unless ALLOW_PRIVATE_NETWORK is on, `allowed_domains`) are the shared SSRF guard
 * of web_fetch (../web/ssrf.ts); this file adds only what is browser-specific: blank pages, the
 * tool error code and which requests of a page the domain limits apply to.
 */

import { BrowserError, NetError } from "../errors";
import { type DomainPolicy, domainMatches } from "../net/allowed-domains";
import { assertFetchable, blockedHostReason, type NetworkPolicy } from "../net/ssrf";

export { domainMatches };

/** Schemes a tab may load besides http(s): blank pages only. */
const ALLOWED_SPECIAL_URLS = new Set(["about:blank"]);

/** The navigation rules of one conversation (its own and its workspace's allowed_domains). */
export interface NavigationPolicy extends DomainPolicy {
  allowPrivateNetwork: boolean;
}

/** Why a URL is refused, or null when it may be loaded. */
export function navigationRefusal(rawUrl: string, policy: NavigationPolicy): string | null {
  if (ALLOWED_SPECIAL_URLS.has(rawUrl)) return null;
  let url: URL;
  try {
    url = new URL(rawUrl);
  } catch {
    return `"${rawUrl}" is not a valid URL.`;
  }
  try {
    assertFetchable(url, policy satisfies NetworkPolicy);
  } catch (err) {
    if (!(err instanceof NetError)) throw err;
    if (err.code === "blocked_address") {
      return `Refused to open ${url.href}: it points to ${blockedHostReason(url.hostname)}; the browser may not reach private or local addresses.`;
    }
    return err.message.replace(/^(Only http and https URLs can be )fetched/, "$1opened");
  }
  return null;
}

/** The policy for a page's sub-resources: address rules only (allowed_domains limit navigation). */
export function subresourcePolicy(policy: NavigationPolicy): NavigationPolicy {
  return { allowPrivateNetwork: policy.allowPrivateNetwork };
}

/** Throws a BrowserError the model reads when a URL may not be loaded. */
export function assertNavigable(url: string, policy: NavigationPolicy): void {
  const refusal = navigationRefusal(url, policy);
  if (refusal) throw new BrowserError("navigation_refused", refusal);
}
