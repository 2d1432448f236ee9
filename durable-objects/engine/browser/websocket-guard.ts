/**
 * WebSockets of a conversation's pages follow its rules at the network layer (and, without
 * allowed_domains, every request follows the address rules there too). Chromium's CDP
 * cannot pause or block a WebSocket handshake (Fetch never sees it, Network.setBlockedURLs does
 * not apply), so a context is created with a proxy configuration that only WebSockets use: http
 * and https go direct (the request guard has already decided them), while ws/wss go to a proxy
 * that does not exist (a `.invalid` name, which never resolves) unless their host is on the
 * bypass list — the hosts the conversation may reach. A refused WebSocket fails in the page
 * without a connection to its host. Chromium evaluates the bypass list with the last matching
 * rule winning; `<-loopback>` takes loopback, `localhost` and link-local (the metadata address)
 * out of the implicit bypass.
 *
 * - With `allowed_domains`: only hosts every list allows (a domain and its subdomains).
 * - Without, private addresses refused: public IPv4 and IPv6 literals and dotted names whose last
 *   character is a letter (every public TLD); not loopback, link-local, private or reserved
 *   literals, nor single-label names — for every scheme, http and https too, so the address rules
 *   hold in the network even while no guard watches. A name that resolves to a private address is
 *   left to Chromium's Local Network Access (denied for the context: a public page reaches no
 *   private or local address).
 * - Without either limit: no proxy at all.
 */

import { BLOCKED_V4, blockedHostReason, parseIPv4 } from "../net/ssrf";
import type { NavigationPolicy } from "./navigation-guard";
import { domainMatches } from "./navigation-guard";

/** The options a conversation's browser context is created with. */
export interface ContextRules {
  proxyServer: string;
  proxyBypassList: string[];
}

/** Where refused WebSockets are sent: a name that never resolves (RFC 6761), so nothing connects. */
export const REFUSED_PROXY = "socks=refused-websocket.invalid:1";
/** http and https go direct: only ws and wss fall back to the `socks` entry. */
const PROXY_SERVER = `http=direct://;https=direct://;${REFUSED_PROXY}`;
/** Subtracts Chromium's implicit bypass of loopback, localhost and link-local addresses. */
const NO_IMPLICIT = "<-loopback>";

/** The context options of a conversation's rules, or null when its WebSockets need no limit. */
export function contextRules(policy: NavigationPolicy): ContextRules | null {
  const domains = allowedHosts(policy);
  if (domains) {
    const usable = policy.allowPrivateNetwork ? domains : domains.filter((d) => !blockedHostReason(d));
    const hosts = usable.flatMap((d) => (isLiteral(d) ? [d] : [d, `*.${d}`]));
    return { proxyServer: PROXY_SERVER, proxyBypassList: [NO_IMPLICIT, ...hosts] };
  }
  if (policy.allowPrivateNetwork) return null;
  // Every scheme: a page's request to a private address fails in the network too, also while no
  // guard watches (between a fleet restart and its wake).
  return { proxyServer: REFUSED_PROXY, proxyBypassList: [...PUBLIC_ADDRESSES, ...PUBLIC_NAMES, NO_IMPLICIT] };
}

/** A key of the rules (a context made under other rules is replaced). */
export function rulesKey(rules: ContextRules | null): string {
  return rules ? `${rules.proxyServer}|${rules.proxyBypassList.join(",")}` : "none";
}

/** The hosts every domain list of the policy allows (a domain stands for it and its subdomains), or null when none is set. */
export function allowedHosts(policy: NavigationPolicy): string[] | null {
  const lists = [policy.workspaceDomains, policy.allowedDomains]
    .filter((l): l is string[] => Boolean(l?.length))
    .map((l) => l.map(normalDomain).filter((d): d is string => d !== null));
  if (lists.length === 0) return null;
  let hosts = lists[0];
  for (const next of lists.slice(1)) {
    const both = new Set<string>();
    for (const a of hosts)
      for (const b of next) {
        if (domainMatches(b, a)) both.add(b);
        else if (domainMatches(a, b)) both.add(a);
      }
    hosts = [...both];
  }
  return [...new Set(hosts)];
}

/** A domain entry as a bypass rule's host, or null when it is not a plain host (nothing else may reach the rules). */
function normalDomain(domain: string): string | null {
  const d = domain.trim().toLowerCase().replace(/^\*\./, "").replace(/\.$/, "");
  return /^[a-z0-9-]+(\.[a-z0-9-]+)*$/.test(d) ? d : null;
}

function isLiteral(host: string): boolean {
  return parseIPv4(host) !== null;
}

/** Dotted names ending in a letter: every public TLD (IPv4 literals end in a digit, IPv6 in `]`). */
const PUBLIC_NAMES = [..."abcdefghijklmnopqrstuvwxyz"].map((c) => `*.*${c}`);

/** The public IPv4 space as CIDR blocks: the complement of the SSRF guard's blocked ranges. */
function publicIPv4Blocks(): string[] {
  const blocked = BLOCKED_V4.map(([ip, bits]) => ({ start: parseIPv4(ip)!, size: 2 ** (32 - bits) }));
  const blocks: string[] = [];
  const walk = (start: number, bits: number) => {
    const size = 2 ** (32 - bits);
    const touching = blocked.filter((b) => start < b.start + b.size && b.start < start + size);
    if (touching.some((b) => b.start <= start && start + size <= b.start + b.size)) return;
    if (touching.length === 0) {
      blocks.push(`${ipv4Text(start)}/${bits}`);
      return;
    }
    walk(start, bits + 1);
    walk(start + size / 2, bits + 1);
  };
  walk(0, 0);
  return blocks;
}

function ipv4Text(n: number): string {
  return [24, 16, 8, 0].map((s) => Math.floor(n / 2 ** s) % 256).join(".");
}

/** Global unicast IPv6 (2000::/3) without 6to4 (2002::/16, which can wrap a private IPv4). */
const PUBLIC_IPV6 = [
  "2000::/15",
  "2003::/16",
  "2004::/14",
  "2008::/13",
  "2010::/12",
  "2020::/11",
  "2040::/10",
  "2080::/9",
  "2100::/8",
  "2200::/7",
  "2400::/6",
  "2800::/5",
  "[3000::]/4",
];

const PUBLIC_ADDRESSES = [...publicIPv4Blocks(), ...PUBLIC_IPV6];
