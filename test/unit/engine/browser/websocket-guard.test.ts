import { describe, expect, it } from "vitest";
import {
  allowedHosts,
  contextRules,
  REFUSED_PROXY,
} from "../../../../durable-objects/engine/browser/websocket-guard";
import { parseIPv4 } from "../../../../durable-objects/engine/net/ssrf";

/** Whether an IPv4 address falls in one of a bypass list's CIDR blocks. */
function inBlocks(ip: string, list: string[]): boolean {
  const n = parseIPv4(ip)!;
  return list
    .filter((r) => /^\d+\.\d+\.\d+\.\d+\/\d+$/.test(r))
    .some((r) => {
      const [base, bits] = r.split("/");
      const start = parseIPv4(base)!;
      return n >= start && n < start + 2 ** (32 - Number(bits));
    });
}

describe("the WebSocket rules of a browser context", () => {
  it("sends only ws/wss to the refused proxy: http and https go direct", () => {
    const rules = contextRules({ allowPrivateNetwork: false })!;
    expect(rules.proxyServer).toBe(`http=direct://;https=direct://;${REFUSED_PROXY}`);
  });

  it("bypasses only the hosts every domain list allows, never a rule smuggled in a domain", () => {
    expect(
      allowedHosts({
        allowPrivateNetwork: false,
        workspaceDomains: ["example.com", "other.org"],
        allowedDomains: ["*.shop.example.com", "elsewhere.net", "x;<-loopback>"],
      }),
    ).toEqual(["shop.example.com"]);
    expect(
      contextRules({ allowPrivateNetwork: false, allowedDomains: ["Example.COM.", "10.0.0.1", "localhost"] }),
    ).toEqual({
      proxyServer: expect.any(String),
      proxyBypassList: ["<-loopback>", "example.com", "*.example.com"],
    });
    expect(
      contextRules({ allowPrivateNetwork: true, allowedDomains: ["127.0.0.1"] })?.proxyBypassList,
    ).toEqual(["<-loopback>", "127.0.0.1"]);
  });

  it("without domain lists, bypasses public addresses and dotted names only, loopback and link-local overridden last", () => {
    const list = contextRules({ allowPrivateNetwork: false })!.proxyBypassList;
    for (const ip of ["1.1.1.1", "8.8.8.8", "100.128.0.1", "172.15.255.255", "172.32.0.0", "223.255.255.255"])
      expect({ ip, public: inBlocks(ip, list) }).toEqual({ ip, public: true });
    for (const ip of [
      "0.0.0.0",
      "10.1.2.3",
      "100.64.0.1",
      "127.0.0.1",
      "169.254.169.254",
      "172.16.0.1",
      "172.31.255.255",
      "192.168.1.1",
      "198.18.0.1",
      "224.0.0.1",
      "255.255.255.255",
    ])
      expect({ ip, public: inBlocks(ip, list) }).toEqual({ ip, public: false });
    expect(list).toContain("*.*z");
    expect(list.some((r) => r === "*" || r.startsWith("fc") || r.startsWith("fe80"))).toBe(false);
    expect(list.at(-1)).toBe("<-loopback>");
    expect(contextRules({ allowPrivateNetwork: true })).toBeNull();
  });
});
