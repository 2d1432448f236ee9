import { describe, expect, it } from "vitest";
import {
  assertNavigable,
  domainMatches,
  navigationRefusal,
} from "../../../../durable-objects/engine/browser/navigation-guard";
import { blockedHostReason } from "../../../../durable-objects/engine/net/ssrf";

const closed = { allowPrivateNetwork: false };

describe("the browser's navigation guard", () => {
  it("refuses private and local addresses unless ALLOW_PRIVATE_NETWORK is on", () => {
    for (const url of [
      "http://127.0.0.1:8080/",
      "http://localhost/",
      "http://10.1.2.3/",
      "http://172.20.0.1/",
      "http://192.168.1.1/",
      "http://169.254.169.254/latest/meta-data",
      "http://[::1]/",
      "http://[fd00::1]/",
      "http://[::ffff:127.0.0.1]/",
      "http://printer.local/",
      "http://0.0.0.0/",
    ]) {
      expect(navigationRefusal(url, closed), url).toMatch(/private or local address/);
      expect(navigationRefusal(url, { allowPrivateNetwork: true }), url).toBeNull();
    }
    expect(navigationRefusal("https://example.com/", closed)).toBeNull();
    expect(navigationRefusal("http://8.8.8.8/", closed)).toBeNull();
    expect(() => assertNavigable("http://10.0.0.1/", closed)).toThrow(/private/);
  });

  it("allows only http(s) and about:blank", () => {
    expect(navigationRefusal("about:blank", closed)).toBeNull();
    expect(navigationRefusal("ftp://example.com/", closed)).toMatch(/Only http and https/);
    expect(navigationRefusal("data:text/html,hi", closed)).toMatch(/Only http and https/);
    expect(navigationRefusal("not a url", closed)).toMatch(/not a valid URL/);
  });

  it("limits hosts to allowed_domains and their subdomains", () => {
    const policy = { allowPrivateNetwork: false, allowedDomains: ["example.com", "*.shop.test"] };
    expect(navigationRefusal("https://example.com/a", policy)).toBeNull();
    expect(navigationRefusal("https://docs.example.com/", policy)).toBeNull();
    expect(navigationRefusal("https://a.shop.test/", policy)).toBeNull();
    expect(navigationRefusal("https://notexample.com/", policy)).toMatch(
      /outside this conversation's allowed_domains/,
    );
    expect(navigationRefusal("https://example.com.evil.net/", policy)).toMatch(/allowed_domains/);
    expect(domainMatches("EXAMPLE.com", "example.com.")).toBe(true);
    expect(blockedHostReason("example.com")).toBeNull();
  });
});
