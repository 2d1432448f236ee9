/**
 * `allowed_domains`: where the browser and web_fetch may go. A workspace and a conversation can
 * each set a list; a URL must satisfy every list that is set, so a conversation can only narrow
 * what its workspace allows.
 */

/** The domain lists that apply to one conversation (absent or empty = no limit at that level). */
export interface DomainPolicy {
  /** The conversation's own `allowed_domains`. */
  allowedDomains?: string[] | null;
  /** The workspace's `allowed_domains` (settings), applied to every conversation of it. */
  workspaceDomains?: string[] | null;
}

/** Whether `host` is `domain` or one of its subdomains (`*.` prefixes are accepted). */
export function domainMatches(host: string, domain: string): boolean {
  const d = domain.trim().toLowerCase().replace(/^\*\./, "").replace(/\.$/, "");
  const h = host
    .toLowerCase()
    .replace(/^\[|\]$/g, "")
    .replace(/\.$/, "");
  return d !== "" && (h === d || h.endsWith(`.${d}`));
}

/** Whether any domain limit is set. */
export function hasDomainLimits(policy: DomainPolicy): boolean {
  return Boolean(policy.allowedDomains?.length || policy.workspaceDomains?.length);
}

/** Why a URL's host is outside the allowed domains, or null when every set list allows it. */
export function domainRefusal(url: URL, policy: DomainPolicy): string | null {
  const levels: [string, string[] | null | undefined][] = [
    ["workspace", policy.workspaceDomains],
    ["conversation", policy.allowedDomains],
  ];
  for (const [level, list] of levels) {
    if (list?.length && !list.some((d) => domainMatches(url.hostname, d))) {
      return `${url.host} is outside this ${level}'s allowed_domains (${list.join(", ")}).`;
    }
  }
  return null;
}
