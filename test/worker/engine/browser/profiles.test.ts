import { env, runInDurableObject } from "cloudflare:test";
import puppeteer from "@cloudflare/puppeteer";
import { describe, expect, it } from "vitest";
import { api, createConversation, newWorkspaceKey } from "../../helpers";
import { BROWSER_TEST_TIMEOUT_MS, fleetMeta, ok, page, sessionIdOf } from "./browser-helpers";

const T = BROWSER_TEST_TIMEOUT_MS;

const createProfile = (name: string, token?: string) =>
  api("/v1/browser/profiles", { method: "POST", json: { name }, token });

/** Signs in on the local shop site through the browser tools, as the agent would. */
async function signIn(conv: string, user: string, site = page("")): Promise<void> {
  await ok(conv, "open_tab", { url: `${site}/browser/login` });
  await ok(conv, "type_text", { selector: "#user", text: user });
  await ok(conv, "type_text", { selector: "#pass", text: "correct horse" });
  await ok(conv, "click", { selector: "#submit" });
}

const accountStatus = async (conv: string, site = page("")) => {
  const tab = await ok(conv, "open_tab", { url: `${site}/browser/account` });
  return (await ok(conv, "get_tab_content", { tab_id: tab.id })).content as string;
};

const save = (conv: string) => api(`/v1/conversations/${conv}/browser/save`, { method: "POST" });

describe("browser profiles", () => {
  it(
    "keep a login: saved in one conversation, a second with the profile starts signed in, a third without does not",
    async () => {
      expect((await createProfile("shop")).status).toBe(201);
      const first = await createConversation("echo", { browser_profile: "shop" });
      expect(await accountStatus(first)).toContain("Not signed in");
      await signIn(first, "alice");
      expect(await accountStatus(first)).toContain("Signed in as alice");
      const sid = (await ok(first, "execute_script", { target: "page", code: "document.cookie" })).result;
      expect(sid).not.toContain("sid="); // HttpOnly: pages cannot read it

      const saved = await save(first);
      expect(saved.status).toBe(200);
      const body = (await saved.json()) as {
        profile: { name: string; origins: string[]; size: number };
        saved_sites: string[];
      };
      expect(body.profile.name).toBe("shop");
      expect(body.profile.origins).toEqual(["127.0.0.1"]);
      expect(body.saved_sites).toEqual(["127.0.0.1"]);
      expect(body.profile.size).toBeGreaterThan(0);

      const second = await createConversation("echo", { browser_profile: "shop" });
      const status = await accountStatus(second);
      expect(status).toContain("Signed in as alice");
      expect(status).toContain("theme: ocean");
      const third = await createConversation("echo");
      expect(await accountStatus(third)).toContain("Not signed in");
      const conv = (await (await api(`/v1/conversations/${second}`)).json()) as { browser_profile: string };
      expect(conv.browser_profile).toBe("shop");
    },
    T,
  );

  it(
    "list sites, size and times but never a value; the state is encrypted at rest",
    async () => {
      await createProfile("vault");
      const conv = await createConversation("echo", { browser_profile: "vault" });
      await signIn(conv, "bob");
      expect((await save(conv)).status).toBe(200);
      const cookies = (await fleetMeta<{ name: string; value: string }[]>(conv, "cookies")) ?? [];
      const sid = cookies.find((c) => c.name === "sid")!.value;
      const list = await api("/v1/browser/profiles");
      const text = await list.text();
      expect(text).not.toContain(sid);
      const entry = (JSON.parse(text) as { data: Record<string, unknown>[] }).data.find(
        (p) => p.name === "vault",
      )!;
      expect(Object.keys(entry).sort()).toEqual(["created_at", "name", "origins", "size", "updated_at"]);
      expect(entry.origins).toEqual(["127.0.0.1"]);
      const sealed = await runInDurableObject(
        env.WORKSPACES.get(env.WORKSPACES.idFromName("default")),
        (_o, s) => JSON.stringify(s.storage.sql.exec("SELECT * FROM browser_profiles").toArray()),
      );
      expect(sealed).toContain("vault");
      expect(sealed).not.toContain(sid);
      expect(sealed).not.toContain("ocean");
    },
    T,
  );

  it(
    "two conversations on one profile: each keeps the other's sites, the later save wins a shared one",
    async () => {
      await createProfile("pair");
      const local = page("").replace("127.0.0.1", "localhost");
      const a = await createConversation("echo", { browser_profile: "pair" });
      const b = await createConversation("echo", { browser_profile: "pair" });
      await signIn(a, "alice");
      await signIn(b, "bob", local);
      expect((await save(a)).status).toBe(200);
      const both = (await (await save(b)).json()) as { profile: { origins: string[] } };
      expect(both.profile.origins).toEqual(["127.0.0.1", "localhost"]);
      const c = await createConversation("echo", { browser_profile: "pair" });
      expect(await accountStatus(c)).toContain("Signed in as alice");
      expect(await accountStatus(c, local)).toContain("Signed in as bob");
      // b now signs in on 127.0.0.1 as carol and saves later: that site is b's now.
      await signIn(b, "carol");
      expect((await save(b)).status).toBe(200);
      const d = await createConversation("echo", { browser_profile: "pair" });
      expect(await accountStatus(d)).toContain("Signed in as carol");
      expect(await accountStatus(d, local)).toContain("Signed in as bob");
    },
    T,
  );

  it(
    "saves when the conversation's browser closes, and the transparent rebuild keeps the login",
    async () => {
      await createProfile("closing");
      const a = await createConversation("echo", { browser_profile: "closing" });
      await signIn(a, "dora");
      const b = await createConversation("echo", { browser_profile: "closing" });
      expect(await accountStatus(b)).toContain("Not signed in");
      // b's browser dies; the rebuild restores b's own state (signed out), not the profile's.
      await (await puppeteer.connect(env.BROWSER, (await sessionIdOf(b))!)).close();
      expect((await api(`/v1/conversations/${a}`, { method: "DELETE" })).status).toBe(200);
      const listed = (await (await api("/v1/browser/profiles")).json()) as {
        data: { name: string; origins: string[] }[];
      };
      expect(listed.data.find((p) => p.name === "closing")!.origins).toEqual(["127.0.0.1"]);
      const rebuilt = await ok(b, "get_tab_content", { tab_id: 1 });
      expect(rebuilt.note).toMatch(/restarted/);
      expect(rebuilt.content).toContain("Not signed in");
      const c = await createConversation("echo", { browser_profile: "closing" });
      expect(await accountStatus(c)).toContain("Signed in as dora");
      await (await puppeteer.connect(env.BROWSER, (await sessionIdOf(c))!)).close();
      const again = await ok(c, "get_tab_content", { tab_id: 1 });
      expect(again.note).toMatch(/restarted/);
      expect(again.content).toContain("Signed in as dora");
    },
    T,
  );

  it("are taken by jobs, whose runs' conversations start with them; unknown ones are refused", async () => {
    await createProfile("nightly");
    const job = { name: "Profiled", prompt: "Check my account.", schedule: "0 7 * * *" };
    const refusedJob = await api("/v1/jobs", { method: "POST", json: { ...job, browser_profile: "ghost" } });
    expect(refusedJob.status).toBe(400);
    expect(((await refusedJob.json()) as { error: { code: string } }).error.code).toBe(
      "unknown_browser_profile",
    );
    const created = await api("/v1/jobs", { method: "POST", json: { ...job, browser_profile: "nightly" } });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: string; browser_profile: string };
    expect(
      ((await (await api(`/v1/jobs/${id}`)).json()) as { browser_profile: string }).browser_profile,
    ).toBe("nightly");
    const patch = await api(`/v1/jobs/${id}`, { method: "PATCH", json: { browser_profile: "ghost" } });
    expect(patch.status).toBe(400);
    const run = (await (await api(`/v1/jobs/${id}/run`, { method: "POST" })).json()) as {
      conversation_id: string;
    };
    const conv = (await (await api(`/v1/conversations/${run.conversation_id}`)).json()) as {
      browser_profile: string;
    };
    expect(conv.browser_profile).toBe("nightly");
    const cleared = await api(`/v1/jobs/${id}`, { method: "PATCH", json: { browser_profile: null } });
    expect(((await cleared.json()) as { browser_profile: string | null }).browser_profile).toBeNull();
  });

  it("refuse unknown, duplicate and badly named profiles, and stay inside their workspace", async () => {
    expect((await createProfile("dup")).status).toBe(201);
    const dup = await createProfile("dup");
    expect(dup.status).toBe(409);
    expect(((await dup.json()) as { error: { code: string } }).error.code).toBe("profile_exists");
    const bad = await createProfile("no/slashes");
    expect(bad.status).toBe(400);
    const unknown = await api("/v1/conversations", { method: "POST", json: { browser_profile: "ghost" } });
    expect(unknown.status).toBe(400);
    expect(((await unknown.json()) as { error: { code: string } }).error.code).toBe(
      "unknown_browser_profile",
    );
    const plain = await createConversation("echo");
    const noProfile = await save(plain);
    expect(noProfile.status).toBe(409);
    expect(((await noProfile.json()) as { error: { code: string } }).error.code).toBe("no_browser_profile");

    const other = await newWorkspaceKey("profiles-other");
    const theirs = await api("/v1/browser/profiles", { token: other.key });
    expect(((await theirs.json()) as { data: unknown[] }).data).toEqual([]);
    const crossed = await api("/v1/conversations", {
      method: "POST",
      json: { browser_profile: "dup" },
      token: other.key,
    });
    expect(crossed.status).toBe(400);
    expect((await api("/v1/browser/profiles/dup", { method: "DELETE", token: other.key })).status).toBe(404);
    expect((await api("/v1/browser/profiles/dup", { method: "DELETE" })).status).toBe(200);
    expect((await api("/v1/browser/profiles/dup", { method: "DELETE" })).status).toBe(404);
  });
});
