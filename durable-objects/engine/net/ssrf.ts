/**
 * SSRF guard: refuses loopback, private, link-local, metadata and other non-public addresses,
 * whatever notation the IP literal uses, and host names that always mean this machine.
 * Redirects are followed by hand so that every hop is checked.
 */
import { NetError } from "../errors";
import { type DomainPolicy, domainRefusal } from "./allowed-domains";

/** Redirect hops followed before giving up. */
export const MAX_REDIRECTS = 10;

/** Host names that always point inside (the machine, the cloud metadata service, the LAN). */
const BLOCKED_NAMES =
  /(^|\.)(localhost|localdomain|internal|local|home\.arpa)$|^(metadata|instance-data)(\.|$)/i;

/** IPv4 ranges that are not publicly routable: [first octets as a 32-bit number, prefix length]. */
export const BLOCKED_V4: [string, number][] = [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.0.2.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["198.51.100.0", 24],
  ["203.0.113.0", 24],
  ["224.0.0.0", 4],
  ["240.0.0.0", 4],
];

/** Parses one IPv4 part in decimal, octal (leading 0) or hex (0x). */
function parseV4Part(part: string): number | null {
  if (/^0x[0-9a-f]*$/i.test(part)) return part.length === 2 ? 0 : Number.parseInt(part.slice(2), 16);
  if (/^0[0-7]+$/.test(part)) return Number.parseInt(part.slice(1), 8);
  if (/^(0|[1-9][0-9]*)$/.test(part)) return Number(part);
  return null;
}

/** An IPv4 literal in any notation inet_aton accepts (`127.1`, `0x7f000001`, `017700000001`) as a number. */
export function parseIPv4(host: string): number | null {
  const parts = host.replace(/\.$/, "").split(".");
  if (parts.length === 0 || parts.length > 4) return null;
  const nums = parts.map(parseV4Part);
  if (nums.some((n) => n === null)) return null;
  const values = nums as number[];
  const last = values.pop()!;
  if (values.some((n) => n > 255) || last >= 2 ** (8 * (4 - values.length))) return null;
  return values.reduce((acc, n, i) => acc + n * 2 ** (8 * (3 - i)), 0) + last;
}

function inV4Range(ip: number, [base, bits]: [string, number]): boolean {
  const start = parseIPv4(base)!;
  const size = 2 ** (32 - bits);
  return ip >= start && ip < start + size;
}

/** Whether a 32-bit IPv4 address is outside the public internet. */
export function isPrivateIPv4(ip: number): boolean {
  return BLOCKED_V4.some((range) => inV4Range(ip, range));
}

/** An IPv6 literal (without brackets) as eight 16-bit groups, or null. */
export function parseIPv6(host: string): number[] | null {
  let text = host.replace(/^\[|\]$/g, "").replace(/%.*$/, "");
  if (!text.includes(":")) return null;
  const tail: number[] = [];
  const v4 = text.match(/:(\d+\.\d+\.\d+\.\d+)$/);
  if (v4) {
    const n = parseIPv4(v4[1]);
    if (n === null) return null;
    tail.push(Math.floor(n / 65536), n % 65536);
    text = text.slice(0, -v4[1].length - 1) + (text.endsWith(`::${v4[1]}`) ? ":" : "");
  }
  const halves = text.split("::");
  if (halves.length > 2) return null;
  const parse = (s: string) =>
    s === ""
      ? []
      : s.split(":").map((g) => (/^[0-9a-f]{1,4}$/i.test(g) ? Number.parseInt(g, 16) : Number.NaN));
  const head = parse(halves[0]);
  const rest = halves.length === 2 ? parse(halves[1]) : [];
  const missing = 8 - head.length - rest.length - tail.length;
  if (missing < 0 || (halves.length === 1 && missing !== 0)) return null;
  const groups = [...head, ...new Array(halves.length === 2 ? missing : 0).fill(0), ...rest, ...tail];
  return groups.length === 8 && groups.every((g) => Number.isInteger(g)) ? groups : null;
}

/** Whether an IPv6 address is loopback, unspecified, private, link-local, or wraps a private IPv4. */
export function isPrivateIPv6(groups: number[]): boolean {
  const [a, b, c, d, e, f, g, h] = groups;
  const embedded = g * 65536 + h;
  if (a === 0 && b === 0 && c === 0 && d === 0 && e === 0) {
    if (f === 0 && g === 0 && (h === 0 || h === 1)) return true; // :: and ::1
    if (f === 0xffff || f === 0) return isPrivateIPv4(embedded); // IPv4-mapped / -compatible
  }
  if (a === 0x64 && b === 0xff9b) return isPrivateIPv4(embedded); // NAT64
  if (a === 0x2002) return isPrivateIPv4(b * 65536 + c); // 6to4
  if ((a & 0xfe00) === 0xfc00) return true; // unique local fc00::/7
  if ((a & 0xffc0) === 0xfe80 || (a & 0xffc0) === 0xfec0) return true; // link-local, site-local
  return (a & 0xff00) === 0xff00; // multicast
}

/** Why a host may not be fetched, or null when it is a public name or address. */
export function blockedHostReason(hostname: string): string | null {
  const host = hostname.toLowerCase().replace(/\.$/, "");
  if (host === "") return "an empty host";
  const v6 = parseIPv6(host);
  if (v6) return isPrivateIPv6(v6) ? `a private or local address (${hostname})` : null;
  const v4 = parseIPv4(host);
  if (v4 !== null) return isPrivateIPv4(v4) ? `a private or local address (${hostname})` : null;
  if (BLOCKED_NAMES.test(host) || !host.includes(".")) return `a local host name (${hostname})`;
  return null;
}

/** Network rules for outgoing requests; `allowed_domains` apply when set (web_fetch and the browser). */
export interface NetworkPolicy extends DomainPolicy {
  /** Lifts the guard (local development and tests only). */
  allowPrivateNetwork: boolean;
}

/** Checks a URL before it is fetched: http(s) only, inside allowed_domains, no private destinations. */
export function assertFetchable(url: URL, policy: NetworkPolicy): void {
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new NetError("unsupported_url", `Only http and https URLs can be fetched, not ${url.protocol}`);
  }
  if (url.username || url.password) {
    throw new NetError("unsupported_url", "URLs with embedded credentials are not fetched.");
  }
  const outside = domainRefusal(url, policy);
  if (outside) throw new NetError("domain_not_allowed", `Refused to fetch ${url.href}: ${outside}`);
  if (policy.allowPrivateNetwork) return;
  const reason = blockedHostReason(url.hostname);
  if (reason) throw new NetError("blocked_address", `Refused to fetch ${url.href}: it points to ${reason}.`);
}

/** A response and the URL it finally came from. */
export interface GuardedResponse {
  response: Response;
  finalUrl: string;
}

/** fetch() that checks every hop against the policy and follows at most MAX_REDIRECTS redirects. */
export async function guardedFetch(
  input: string,
  init: RequestInit,
  policy: NetworkPolicy,
  fetcher: typeof fetch = fetch,
): Promise<GuardedResponse> {
  let url = new URL(input);
  for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
    try {
      assertFetchable(url, policy);
    } catch (err) {
      if (hop > 0 && err instanceof NetError) err.message += ` (${input} redirected there)`;
      throw err;
    }
    const response = await fetcher(url.href, { ...init, redirect: "manual" });
    const location = response.headers.get("location");
    if (response.status < 300 || response.status >= 400 || !location) return { response, finalUrl: url.href };
    await response.body?.cancel();
    url = new URL(location, url);
  }
  throw new NetError("too_many_redirects", `${input} redirected more than ${MAX_REDIRECTS} times.`);
}
