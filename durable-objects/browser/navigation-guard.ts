/**
 * Where the browser may go: http(s) only, private addresses only when ALLOW_PRIVATE_NETWORK is
 * on, and only `allowed_domains` when the conversation sets them. A minimal stand-in for the
 * shared SSRF guard (durable-objects/web/ssrf.ts) that can later replace `isPrivateHost`.
 */
import { ToolError } from "../tools/tool";

/** Schemes a tab may load besides http(s): blank pages only. */
const ALLOWED_SPECIAL_URLS = new Set(["about:blank"]);

/** The navigation rules of one conversation. */
export interface NavigationPolicy {
  allowPrivateNetwork: boolean;
  /** Hostnames (and their subdomains) the browser may visit; empty or absent = any. */
  allowedDomains?: string[] | null;
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
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    return `Only http and https URLs can be opened, not ${url.protocol}.`;
  }
  const host = url.hostname.replace(/^\[|\]$/g, "").toLowerCase();
  if (!policy.allowPrivateNetwork && isPrivateHost(host)) {
    return `${url.host} is a private or local address; the browser may not reach it.`;
  }
  const allowed = policy.allowedDomains ?? [];
  if (allowed.length > 0 && !allowed.some((d) => domainMatches(host, d))) {
    return `${url.host} is outside this conversation's allowed_domains (${allowed.join(", ")}).`;
  }
  return null;
}

/** Throws a ToolError the model reads when a URL may not be loaded. */
export function assertNavigable(url: string, policy: NavigationPolicy): void {
  const refusal = navigationRefusal(url, policy);
  if (refusal) throw new ToolError("navigation_refused", refusal);
}

/** Whether `host` is `domain` or one of its subdomains (`*.` prefixes are accepted). */
export function domainMatches(host: string, domain: string): boolean {
  const d = domain.trim().toLowerCase().replace(/^\*\./, "").replace(/\.$/, "");
  const h = host.toLowerCase().replace(/\.$/, "");
  return d !== "" && (h === d || h.endsWith(`.${d}`));
}

/** Whether a hostname names this machine or a private, link-local or reserved network. */
export function isPrivateHost(host: string): boolean {
  const h = host.toLowerCase().replace(/\.$/, "");
  if (h === "localhost" || h.endsWith(".localhost") || h.endsWith(".local") || h.endsWith(".internal")) {
    return true;
  }
  const v4 = parseIPv4(h);
  if (v4) return isPrivateIPv4(v4);
  if (h.includes(":")) return isPrivateIPv6(h);
  return false;
}

function parseIPv4(host: string): number[] | null {
  const parts = host.split(".");
  if (parts.length !== 4 || !parts.every((p) => /^\d{1,3}$/.test(p))) return null;
  const nums = parts.map(Number);
  return nums.every((n) => n <= 255) ? nums : null;
}

function isPrivateIPv4([a, b]: number[]): boolean {
  return (
    a === 0 ||
    a === 10 ||
    a === 127 ||
    (a === 100 && b >= 64 && b <= 127) ||
    (a === 169 && b === 254) ||
    (a === 172 && b >= 16 && b <= 31) ||
    (a === 192 && b === 168) ||
    (a === 198 && (b === 18 || b === 19)) ||
    a >= 224
  );
}

function isPrivateIPv6(host: string): boolean {
  if (host === "::" || host === "::1") return true;
  const mapped = host.match(/^::ffff:(\d+\.\d+\.\d+\.\d+)$/);
  if (mapped) return isPrivateHost(mapped[1]);
  const hex = host.match(/^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/);
  if (hex) {
    const [hi, lo] = [Number.parseInt(hex[1], 16), Number.parseInt(hex[2], 16)];
    return isPrivateIPv4([hi >> 8, hi & 255, lo >> 8, lo & 255]);
  }
  return /^(fc|fd|fe8|fe9|fea|feb)/.test(host);
}
