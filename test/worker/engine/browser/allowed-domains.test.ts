import { describe, expect, it } from "vitest";
import { api, createConversation } from "../../helpers";
import { BROWSER_TEST_TIMEOUT_MS, ok, page, tool } from "./browser-helpers";

const T = BROWSER_TEST_TIMEOUT_MS;
/** The same page server under a host name outside the allowed list. */
const outside = (path: string) => page(path).replace("127.0.0.1", "localhost");

describe("allowed_domains", () => {
  it("is stored with the conversation and validated", async () => {
    const res = await api("/v1/conversations", {
      method: "POST",
      json: { allowed_domains: ["example.com"] },
    });
    expect(res.status).toBe(201);
    expect(await res.json()).toMatchObject({ allowed_domains: ["example.com"] });
    const bad = await api("/v1/conversations", { method: "POST", json: { allowed_domains: "example.com" } });
    expect(bad.status).toBe(400);
  });

  it(
    "lets the browser go only to allowed hosts, across redirects and clicked links",
    async () => {
      const conv = await createConversation("echo", { allowed_domains: ["127.0.0.1"] });
      const home = await ok(conv, "open_tab", { url: page("/hello") });
      expect(home.title).toBe("Hello");

      const direct = await tool(conv, "open_tab", { url: outside("/hello") });
      expect(direct).toMatchObject({ status: 422, error: { code: "navigation_refused" } });
      expect(direct.error?.message).toMatch(
        /localhost:\d+ is outside this conversation's allowed_domains \(127\.0\.0\.1\)/,
      );

      const redirect = page(`/browser/redirect?to=${encodeURIComponent(outside("/hello"))}`);
      const viaRedirect = await tool(conv, "open_tab", { url: redirect });
      expect(viaRedirect).toMatchObject({ status: 422, error: { code: "navigation_refused" } });
      expect(viaRedirect.error?.message).toMatch(/localhost/);
      const inTab = await tool(conv, "open_tab", { url: redirect, tab_id: home.id });
      expect(inTab.error?.code).toBe("navigation_refused");

      const allowedRedirect = await ok(conv, "open_tab", {
        url: page(`/browser/redirect?to=${encodeURIComponent(page("/browser/form"))}`),
      });
      expect(allowedRedirect.title).toBe("Sign in");

      await ok(conv, "open_tab", {
        url: page(`/browser/outside?to=${encodeURIComponent(outside("/hello"))}`),
        tab_id: home.id,
      });
      const clicked = await tool(conv, "click", { tab_id: home.id, selector: "#out" });
      expect(clicked).toMatchObject({ status: 422, error: { code: "navigation_refused" } });

      const tabs = (await ok(conv, "list_tabs")).tabs;
      expect(tabs.map((t: { id: number; title: string }) => [t.id, t.title])).toEqual([
        [home.id, "Outside link"],
        [allowedRedirect.id, "Sign in"],
      ]);
    },
    T,
  );

  it(
    "refuses URLs that are not http or https",
    async () => {
      const conv = await createConversation("echo");
      const file = await tool(conv, "open_tab", { url: "file:///etc/passwd" });
      expect(file).toMatchObject({ status: 422, error: { code: "navigation_refused" } });
      const js = await tool(conv, "open_tab", { url: "javascript:alert(1)" });
      expect(js.error?.code).toBe("navigation_refused");
    },
    T,
  );
});
