import { describe, expect, it } from "vitest";
import { retryDelay, webhookUrlProblem } from "../../../../durable-objects/engine/webhook-delivery/delivery";
import {
  newWebhookSecret,
  secretKeyBytes,
} from "../../../../durable-objects/engine/webhook-delivery/signing";

describe("webhook URLs and retries", () => {
  it("refuse private and local addresses unless private networks are allowed", () => {
    for (const url of [
      "http://127.0.0.1/hook",
      "http://localhost:8080/x",
      "http://10.1.2.3/",
      "http://[::1]/",
    ])
      expect(webhookUrlProblem(url, false, "url"), url).toMatch(/webhooks are only sent to public addresses/);
    expect(webhookUrlProblem("http://127.0.0.1/hook", true, "url")).toBeNull();
    expect(webhookUrlProblem("https://hooks.example.com/cirrus", false, "url")).toBeNull();
    expect(webhookUrlProblem("file:///etc/passwd", false, "url")).toMatch(/^url: /);
  });

  it("double the delay per attempt up to the cap", () => {
    expect([1, 2, 3, 4, 5].map((n) => retryDelay(n, 100))).toEqual([100, 200, 400, 800, 1600]);
    expect(retryDelay(30)).toBe(30 * 60_000);
  });

  it("make 32-byte whsec_ secrets and read older URL-safe ones", () => {
    const secret = newWebhookSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(secretKeyBytes(secret)).toHaveLength(32);
    expect(secretKeyBytes("whsec_-_-_")).toEqual(Uint8Array.from([0xfb, 0xff, 0xbf]));
  });
});
