import { describe, expect, it } from "vitest";
import { api, createConversation, eventually, readSse, script, uniqueKey, untilRunEnd } from "../../helpers";
import { configureReceiver, receiverLog } from "../../job/jobs-helpers";
import { BROWSER_TEST_TIMEOUT_MS, ok, page, tool } from "./browser-helpers";

const T = BROWSER_TEST_TIMEOUT_MS;
const SECRET = "Tr0ub4dor&3-horse";
const hex = (s: string) =>
  [...new TextEncoder().encode(s)].map((b) => b.toString(16).padStart(2, "0")).join("");
const reversed = (s: string) => [...s].reverse().join("");
/** The forms an attacker's script or a page turns a typed value into. */
const FORMS = [SECRET, btoa(SECRET), hex(SECRET), reversed(SECRET), btoa(`user:${SECRET}`).slice(8, 24)];

const putSecret = (name: string, body: Record<string, unknown>) =>
  api(`/v1/secrets/${name}`, { method: "PUT", json: body });

describe("secrets bound to where they may be typed", () => {
  it("stores a secret's kind and allowed_domains, lists them without the value and refuses bad settings", async () => {
    expect(
      (await putSecret("bank_pw", { value: SECRET, allowed_domains: ["bank.example", "*.bank.example"] }))
        .status,
    ).toBe(200);
    expect((await putSecret("bank_otp", { value: "JBSWY3DPEHPK3PXP", kind: "totp", digits: 8 })).status).toBe(
      200,
    );
    const list = await api("/v1/secrets");
    const text = await list.text();
    expect(text).not.toContain(SECRET);
    expect(text).not.toContain("JBSWY3DPEHPK3PXP");
    const data = (JSON.parse(text) as { data: Record<string, unknown>[] }).data;
    expect(data.map(({ updated_at: _, ...rest }) => rest)).toEqual([
      { name: "bank_otp", kind: "totp", allowed_domains: null },
      { name: "bank_pw", kind: "text", allowed_domains: ["bank.example", "*.bank.example"] },
    ]);
    const notBase32 = await putSecret("x", { value: "not base32!", kind: "totp" });
    expect(notBase32.status).toBe(400);
    expect(((await notBase32.json()) as { error: { code: string } }).error.code).toBe("invalid_request");
    expect((await putSecret("x", { value: "abc", digits: 6 })).status).toBe(400);
    expect((await putSecret("x", { value: "abc", kind: "otp" })).status).toBe(400);
    expect(
      (await putSecret("x", { value: "abc", allowed_domains: ["https://bank.example/login"] })).status,
    ).toBe(400);
  });

  it(
    "types a secret only on an http(s) page its allowed_domains allow: never on about:blank or another host",
    async () => {
      await putSecret("bound_pw", { value: SECRET, allowed_domains: ["bank.example"] });
      await putSecret("free_pw", { value: SECRET });
      await putSecret("local_pw", { value: SECRET, allowed_domains: ["127.0.0.1"] });
      const conv = await createConversation("echo");
      const blank = await ok(conv, "open_tab", { url: "about:blank" });
      await ok(conv, "execute_script", {
        target: "page",
        code: "document.body.innerHTML = '<input id=p>'; 1",
      });
      const onBlank = await tool(conv, "type_secret", {
        tab_id: blank.id,
        selector: "#p",
        secret: "free_pw",
      });
      expect(onBlank).toMatchObject({ status: 422, error: { code: "secret_domain_refused" } });
      expect(onBlank.error?.message).toMatch(
        /only be typed into an http\(s\) page; this tab is on a about: page/,
      );

      const form = await ok(conv, "open_tab", { url: page("/browser/form") });
      const offDomain = await tool(conv, "type_secret", {
        tab_id: form.id,
        selector: "#user",
        secret: "bound_pw",
      });
      expect(offDomain).toMatchObject({ status: 422, error: { code: "secret_domain_refused" } });
      expect(offDomain.error?.message).toBe(
        'The secret "bound_pw" may only be typed on bank.example; this tab is on 127.0.0.1.',
      );
      expect(
        await ok(conv, "type_secret", { tab_id: form.id, selector: "#user", secret: "local_pw" }),
      ).toMatchObject({
        typed: true,
      });
      await ok(conv, "open_tab", { url: page("/browser/form"), tab_id: form.id });
      expect(
        await ok(conv, "type_secret", { tab_id: form.id, selector: "#user", secret: "free_pw" }),
      ).toMatchObject({
        typed: true,
      });
    },
    T,
  );

  it(
    "refuses execute_script in a page a secret was typed into until the tab navigates, and typing after a script",
    async () => {
      await putSecret("site_pw", { value: SECRET });
      const conv = await createConversation("echo");
      const tab = await ok(conv, "open_tab", { url: page("/browser/form") });
      await ok(conv, "type_secret", { tab_id: tab.id, selector: "#user", secret: "site_pw" });
      for (const world of ["ISOLATED", "MAIN"]) {
        const read = await tool(conv, "execute_script", {
          target: "page",
          world,
          code: "btoa(document.querySelector('#user').value)",
        });
        expect(read).toMatchObject({ status: 422, error: { code: "secret_in_page" } });
      }
      expect(await ok(conv, "execute_script", { target: "sandbox", code: "1 + 1" })).toMatchObject({
        result: 2,
      });

      await ok(conv, "open_tab", { url: page("/browser/form"), tab_id: tab.id });
      const after = await ok(conv, "execute_script", { target: "page", code: "document.title" });
      expect(after.result).toBe("Sign in");
      const watched = await tool(conv, "type_secret", {
        tab_id: tab.id,
        selector: "#user",
        secret: "site_pw",
      });
      expect(watched).toMatchObject({ status: 422, error: { code: "secret_after_script" } });
      await ok(conv, "open_tab", { url: page("/browser/form"), tab_id: tab.id });
      expect(
        await ok(conv, "type_secret", { tab_id: tab.id, selector: "#user", secret: "site_pw" }),
      ).toMatchObject({
        typed: true,
      });
    },
    T,
  );

  it(
    "redacts a typed secret's base64, hex and reversed forms in tool results, the run output, its events and the webhook",
    async () => {
      await putSecret("echo_pw", { value: SECRET });
      const hookName = uniqueKey("secret-hook");
      const hook = await api("/v1/webhooks", {
        method: "POST",
        json: { url: `${page("")}/receiver/${hookName}`, events: ["run.succeeded"] },
      });
      await configureReceiver(hookName, {
        secret: ((await hook.json()) as { secret: string }).secret,
        scheme: "standard",
      });
      const key = uniqueKey("secret-forms");
      await script(key, [
        { tool_calls: [{ id: "c1", name: "open_tab", arguments: { url: page("/guard/echo-forms") } }] },
        {
          tool_calls: [
            { id: "c2", name: "type_secret", arguments: { selector: "#pass", secret: "echo_pw" } },
          ],
        },
        { tool_calls: [{ id: "c3", name: "get_tab_content", arguments: { tab_id: 1 } }] },
        // The attacker's model writes what it hopes to exfiltrate into its answer.
        { text: `Leaked: ${btoa(SECRET)} / ${hex(SECRET)} / ${reversed(SECRET)} / ${SECRET}` },
      ]);
      const conv = await createConversation(key);
      const res = await api(`/v1/conversations/${conv}/messages`, {
        method: "POST",
        json: { content: "go" },
      });
      const events = await readSse(res, untilRunEnd, 60_000);
      const content = events.find((e) => e.data.type === "TOOL_CALL_RESULT" && e.data.toolCallId === "c3");
      expect(String(content?.data.content)).toContain(
        "b64:<secret:echo_pw> hex:<secret:echo_pw> rev:<secret:echo_pw> wrapped:",
      );
      const finished = events.at(-1)!;
      expect(finished.data).toMatchObject({
        type: "RUN_FINISHED",
        result: "Leaked: <secret:echo_pw> / <secret:echo_pw> / <secret:echo_pw> / <secret:echo_pw>",
      });
      const streamed = events
        .filter((e) => e.data.type === "TEXT_MESSAGE_CONTENT")
        .map((e) => e.data.delta)
        .join("");
      expect(streamed).toContain("Leaked: <secret:echo_pw> / <secret:echo_pw>");
      const [delivered] = await eventually(async () => {
        const log = await receiverLog(hookName);
        return log.length ? log : null;
      });
      expect(JSON.stringify(delivered.body)).toContain("Leaked: <secret:echo_pw>");
      const log = await readSse(await api(`/v1/conversations/${conv}/events`), untilRunEnd, 10_000);
      const messages = await (await api(`/v1/conversations/${conv}/messages`)).text();
      for (const seen of [JSON.stringify(events), JSON.stringify(log), JSON.stringify(delivered), messages]) {
        for (const form of FORMS) expect(seen).not.toContain(form);
      }
    },
    T,
  );
});
