import { describe, expect, it } from "vitest";
import {
  charsetFromContentType,
  charsetFromMeta,
  decodeBody,
  normalizeCharset,
} from "../../../../durable-objects/engine/net/charset";
import { plainText, unwrapUrl } from "../../../../durable-objects/engine/search/result";

describe("charset detection", () => {
  it("maps common labels to the encodings browsers use", () => {
    expect(normalizeCharset("ISO-8859-1")).toBe("windows-1252");
    expect(normalizeCharset("GB2312")).toBe("gbk");
    expect(normalizeCharset('"Shift-JIS"')).toBe("shift_jis");
    expect(normalizeCharset("nonsense")).toBeNull();
    expect(charsetFromContentType("text/html; charset=EUC-KR")).toBe("euc-kr");
    expect(
      charsetFromMeta(
        new TextEncoder().encode('<meta http-equiv="Content-Type" content="text/html; charset=gb18030">'),
      ),
    ).toBe("gb18030");
  });

  it("prefers a BOM, then the header, then the meta tag, then UTF-8 or Windows-1252", () => {
    expect(
      decodeBody(new Uint8Array([0xef, 0xbb, 0xbf, 0x68, 0x69]), "text/html; charset=iso-8859-1", true),
    ).toBe("hi");
    expect(decodeBody(new Uint8Array([0x43, 0x61, 0x66, 0xe9]), null, false)).toBe("Café");
    expect(decodeBody(new TextEncoder().encode("Café"), null, false)).toBe("Café");
  });
});

describe("search result helpers", () => {
  it("unwraps DuckDuckGo, Bing and Google redirect links", () => {
    expect(unwrapUrl("//duckduckgo.com/l/?uddg=https%3A%2F%2Fgo.dev%2F&rut=abc")).toBe("https://go.dev/");
    expect(unwrapUrl("https://www.bing.com/cr?IG=1&r=http%3a%2f%2fwww.imdb.com%2f&p=DevEx")).toBe(
      "http://www.imdb.com/",
    );
    expect(
      unwrapUrl(
        `https://www.bing.com/ck/a?!&&p=1&u=a1${btoa("https://example.com/a").replace(/=+$/, "")}&ntb=1`,
      ),
    ).toBe("https://example.com/a");
    expect(unwrapUrl("https://www.google.com/url?q=https://example.org/&sa=U")).toBe("https://example.org/");
    expect(unwrapUrl("https://example.net/page")).toBe("https://example.net/page");
  });

  it("strips markup and decodes entities in snippets", () => {
    expect(plainText("Semantic <strong>Kernel</strong> isn&#x27;t &amp; won&#39;t")).toBe(
      "Semantic Kernel isn't & won't",
    );
  });
});
