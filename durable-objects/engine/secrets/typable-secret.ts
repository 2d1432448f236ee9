/**
 * A workspace secret as type_secret receives it, and the rule of where it may be typed: only into
 * an http(s) page whose host the secret's `allowed_domains` allow (any http(s) page without a list;
 * never about:, data:, blob: or file: pages, whose content the model's own scripts control).
 */
import type { SecretKind } from "../../../schemas/browser-api";
import { domainMatches } from "../net/allowed-domains";

/** A secret with what typing it needs (the value is a TOTP seed for kind "totp"). */
export interface TypableSecret {
  kind: SecretKind;
  value: string;
  /** TOTP code length and step in seconds (kind "totp"). */
  digits: number;
  period: number;
  /** Hosts (and `*.` suffixes) it may be typed on; null = any http(s) page. */
  allowed_domains: string[] | null;
}

/** Why a secret may not be typed into a page at `pageUrl`, or null when it may. */
export function secretTypingRefusal(name: string, secret: TypableSecret, pageUrl: string): string | null {
  let url: URL | null = null;
  try {
    url = new URL(pageUrl);
  } catch {
    url = null;
  }
  if (!url || (url.protocol !== "http:" && url.protocol !== "https:")) {
    const shown = url ? `${url.protocol}` : JSON.stringify(pageUrl);
    return `The secret "${name}" can only be typed into an http(s) page; this tab is on a ${shown} page. Open the site's login page with open_tab first.`;
  }
  const list = secret.allowed_domains;
  if (list?.length && !list.some((d) => domainMatches(url.hostname, d))) {
    return `The secret "${name}" may only be typed on ${list.join(", ")}; this tab is on ${url.hostname}.`;
  }
  return null;
}
