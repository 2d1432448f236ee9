import { describe, expect, it } from "vitest";
import { headerRedactor } from "../../../../durable-objects/engine/secrets/header-redaction";

describe("headerRedactor", () => {
  it("redacts each header's value, a scheme's token alone and their encoded forms", () => {
    const r = headerRedactor({ Authorization: "Bearer tok-1234567", "x-api-key": "key-abcdef" });
    expect(r.text("Bearer tok-1234567 | tok-1234567 | key-abcdef")).toBe(
      "<secret:header:authorization> | <secret:header:authorization> | <secret:header:x-api-key>",
    );
    expect(r.text(btoa("key-abcdef"))).toBe("<secret:header:x-api-key>");
    expect(r.value({ echoed: { "x-api-key": "key-abcdef" } })).toEqual({
      echoed: { "x-api-key": "<secret:header:x-api-key>" },
    });
  });

  it("redacts a token echoed in JSON that escapes '/' (PHP's json_encode), which would parse back whole", () => {
    const r = headerRedactor({ Authorization: "Bearer ab/cd+ef/gh==" });
    const echoed = '{"headers":{"Authorization":"Bearer ab\\/cd+ef\\/gh=="}}';
    // The HTTP tool redacts the body's text, then parses it.
    expect(JSON.parse(r.text(echoed))).toEqual({
      headers: { Authorization: "<secret:header:authorization>" },
    });
  });

  it("leaves short values and no headers alone", () => {
    expect(headerRedactor({ "x-version": "2", accept: "a b" }).text("version 2, a b")).toBe("version 2, a b");
    expect(headerRedactor(undefined).value({ a: "b" })).toEqual({ a: "b" });
  });

  it("leaves the headers that describe content, so a JSON answer naming its type stays whole", () => {
    const r = headerRedactor({
      "Content-Type": "application/json",
      Accept: "application/json",
      "X-Key": "key-abcdef",
    });
    expect(r.text('{"type":"application/json","key":"key-abcdef"}')).toBe(
      '{"type":"application/json","key":"<secret:header:x-key>"}',
    );
  });

  it("leaves the headers that pin an API's version, so the dates the API returns stay whole", () => {
    const r = headerRedactor({
      "X-GitHub-Api-Version": "2022-11-28",
      "Notion-Version": "2022-06-28",
      Authorization: "Bearer tok-1234567",
    });
    expect(r.text('{"created_at":"2022-11-28T10:00:00Z","edited":"2022-06-28","t":"tok-1234567"}')).toBe(
      '{"created_at":"2022-11-28T10:00:00Z","edited":"2022-06-28","t":"<secret:header:authorization>"}',
    );
  });
});
