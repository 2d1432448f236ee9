import { describe, expect, it } from "vitest";
import {
  assertFetchable,
  blockedHostReason,
  parseIPv4,
  parseIPv6,
} from "../../../../durable-objects/engine/net/ssrf";

describe("the SSRF guard", () => {
  it("reads IPv4 literals in every notation inet_aton accepts", () => {
    for (const ip of [
      "127.0.0.1",
      "127.1",
      "0x7f.1",
      "0x7f000001",
      "2130706433",
      "017700000001",
      "0177.0.0.1",
      "127.0.1",
    ]) {
      expect(parseIPv4(ip), ip).toBe(2130706433);
    }
    expect(parseIPv4("256.1.1.1")).toBeNull();
    expect(parseIPv4("example.com")).toBeNull();
  });

  it("reads IPv6 literals, compressed and with an embedded IPv4", () => {
    expect(parseIPv6("::1")).toEqual([0, 0, 0, 0, 0, 0, 0, 1]);
    expect(parseIPv6("[::ffff:127.0.0.1]")).toEqual([0, 0, 0, 0, 0, 0xffff, 0x7f00, 1]);
    expect(parseIPv6("2001:db8::8a2e:370:7334")).toEqual([0x2001, 0xdb8, 0, 0, 0, 0x8a2e, 0x370, 0x7334]);
    expect(parseIPv6("1:2:3")).toBeNull();
  });

  it("blocks loopback, private, link-local, metadata and local names", () => {
    for (const host of [
      "127.0.0.1",
      "127.1",
      "0x7f.1",
      "2130706433",
      "017700000001",
      "0.0.0.0",
      "0",
      "10.20.30.40",
      "172.31.0.1",
      "192.168.0.1",
      "100.64.0.1",
      "169.254.169.254",
      "[::1]",
      "::",
      "::ffff:127.0.0.1",
      "::ffff:7f00:1",
      "[::ffff:a9fe:a9fe]",
      "64:ff9b::a00:1",
      "2002:c0a8:0101::1",
      "fd12:3456::1",
      "fe80::1%25eth0",
      "ff02::1",
      "localhost",
      "LOCALHOST.",
      "api.localhost",
      "metadata.google.internal",
      "metadata",
      "printer.local",
      "intranet",
    ]) {
      expect(blockedHostReason(host), host).not.toBeNull();
    }
  });

  it("lets public names and addresses through", () => {
    for (const host of [
      "example.com",
      "8.8.8.8",
      "1.1.1.1",
      "[2606:4700:4700::1111]",
      "172.32.0.1",
      "192.169.0.1",
    ]) {
      expect(blockedHostReason(host), host).toBeNull();
    }
  });

  it("checks the URL the runtime will really connect to", () => {
    const policy = { allowPrivateNetwork: false };
    for (const url of [
      "http://0x7f.1/",
      "http://2130706433:8080/",
      "http://[::ffff:127.0.0.1]/",
      "http://localhost./",
    ]) {
      expect(() => assertFetchable(new URL(url), policy), url).toThrow(/private or local|local host name/);
    }
    expect(() => assertFetchable(new URL("gopher://example.com/"), policy)).toThrow(/Only http and https/);
    expect(() => assertFetchable(new URL("http://user:pw@example.com/"), policy)).toThrow(/credentials/);
    expect(() => assertFetchable(new URL("http://127.0.0.1/"), { allowPrivateNetwork: true })).not.toThrow();
  });
});
