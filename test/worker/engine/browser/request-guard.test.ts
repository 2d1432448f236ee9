import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { createConversation, eventually } from "../../helpers";
import { api, newWorkspaceKey, readSse, script, uniqueKey, untilRunEnd } from "../../helpers";
import { BROWSER_TEST_TIMEOUT_MS, fleetObject, ok, page, sessionIdOf, tool } from "./browser-helpers";

const T = BROWSER_TEST_TIMEOUT_MS;
/** The same page server under a host name outside the allowed list. */
const outside = (path: string) => page(path).replace("127.0.0.1", "localhost");
/** The page server's request log: where a marker was asked for. */
const hitUrl = (id: string, at: (path: string) => string = page) =>
  at(`/guard/hit?id=${encodeURIComponent(id)}`);

/** The methods of the requests the page server saw for a marker. */
async function hits(id: string): Promise<string[]> {
  const res = await fetch(page(`/guard/hits?id=${encodeURIComponent(id)}`));
  return ((await res.json()) as { methods: string[] }).methods;
}

/**
 * A page script that makes every kind of request a page can make to `at(kind)`, then `done`
 * (run from a timer, so execute_script returns at once however slow the machine is).
 */
function attack(at: (kind: string) => string, done: string): string {
  return `window.__settled = false; setTimeout(() => {
    window.open(${JSON.stringify(at("popup"))});
    const link = document.createElement("a");
    link.href = ${JSON.stringify(at("blank-link"))};
    link.target = "_blank";
    document.body.append(link);
    link.click();
    const frame = document.createElement("iframe");
    frame.name = "sink";
    frame.src = ${JSON.stringify(at("frame"))};
    document.body.append(frame);
    const form = document.createElement("form");
    form.method = "post";
    form.action = ${JSON.stringify(at("post"))};
    form.target = "sink";
    document.body.append(form);
    form.submit();
    const hop = document.createElement("iframe");
    hop.src = ${JSON.stringify(page("/browser/redirect?to="))} + encodeURIComponent(${JSON.stringify(at("redirect"))});
    document.body.append(hop);
    const fetched = fetch(${JSON.stringify(at("fetch"))}, { mode: "no-cors" }).catch(() => null);
    const worker = new Worker(URL.createObjectURL(new Blob([
      "fetch(" + JSON.stringify(${JSON.stringify(at("worker"))}) + ", { mode: 'no-cors' }).catch(() => null).then(() => postMessage(1))",
    ])));
    const workerDone = new Promise((resolve) => { worker.onmessage = resolve; worker.onerror = resolve; });
    Promise.all([fetched, workerDone]).then(() => {
      window.__settled = true;
      return fetch(${JSON.stringify(done)}, { mode: "no-cors" }).catch(() => null);
    });
  }, 0); "sent";`;
}

const KINDS = ["popup", "blank-link", "frame", "post", "redirect", "fetch", "worker"];

/** Refuses private addresses for one conversation's browser in the fleet (tests allow them; a deployment does not). */
async function refusePrivateNetwork(conv: string, workspaceId: string): Promise<void> {
  await runInDurableObject(fleetObject(workspaceId), (obj) => {
    const fleet = (obj as unknown as { fleet: { browsers: Map<string, unknown> } }).fleet;
    const browser = fleet.browsers.get(conv) as {
      deps: { options: { policy: { allowPrivateNetwork: boolean } } };
    };
    browser.deps.options.policy.allowPrivateNetwork = false;
  });
}

/** A tool call in another workspace (its key). */
async function callIn(token: string, conv: string, name: string, args: Record<string, unknown>) {
  const res = await api(`/v1/conversations/${conv}/tools/${name}`, {
    method: "POST",
    json: { arguments: args },
    token,
  });
  // biome-ignore lint/suspicious/noExplicitAny: test results are read loosely
  const body = (await res.json()) as { result?: any; error?: { code: string; message: string } };
  return { status: res.status, result: body.result, error: body.error };
}

/** The id of the context a workspace's fleet keeps ready on its browser (its spare), or null when none is ready. */
function spareContextId(workspaceId: string): Promise<string | null> {
  return runInDurableObject(fleetObject(workspaceId), (obj) => {
    const pool = (obj as unknown as { fleet: { pool: { sessions: Map<string, PoolSession> } } }).fleet.pool;
    const session = [...pool.sessions.values()][0];
    return session?.spare?.ready?.context.id ?? null;
  });
}

/** The id of a conversation's context in its workspace's fleet. */
function contextIdOf(conv: string, workspaceId: string): Promise<string | null> {
  return runInDurableObject(fleetObject(workspaceId), (_obj, state) => {
    const row = state.storage.sql
      .exec<{ context_id: string }>("SELECT context_id FROM fleet_contexts WHERE conv = ?", conv)
      .toArray()[0];
    return row?.context_id ?? null;
  });
}

type PoolSession = { spare: { ready: { context: { id?: string } } | null } | null };

/** Waits until a conversation lists `n` tabs; returns them. */
async function tabsWhen(conv: string, n: number): Promise<{ id: number; window_id: number; url: string }[]> {
  return eventually(async () => {
    const listed = (await ok(conv, "list_tabs")).tabs as { id: number; window_id: number; url: string }[];
    return listed.length === n ? listed : null;
  }, 20_000);
}

describe("the browser's request guard", () => {
  it(
    "keeps popups, frames, form posts, redirects, fetches and workers inside allowed_domains; popups become tabs; another conversation on the same browser is not held to them",
    async () => {
      const mark = uniqueKey("outside");
      const key = uniqueKey("guard-model");
      await script(key, [
        { tool_calls: [{ id: "c1", name: "open_tab", arguments: { url: page("/browser/form") } }] },
        {
          tool_calls: [
            {
              id: "c2",
              name: "execute_script",
              arguments: {
                target: "page",
                world: "MAIN",
                code: attack((kind) => hitUrl(`${mark}-${kind}`, outside), hitUrl(`${mark}-done`)),
              },
            },
          ],
        },
        { text: "Done." },
      ]);
      const guarded = await createConversation(key, { allowed_domains: ["127.0.0.1"] });
      const res = await api(`/v1/conversations/${guarded}/messages`, {
        method: "POST",
        json: { content: "go" },
      });
      const events = await readSse(res, untilRunEnd, 60_000);
      expect(events.at(-1)?.data.type).toBe("RUN_FINISHED");
      const attacked = events.find((e) => e.data.type === "TOOL_CALL_RESULT" && e.data.toolCallId === "c2");
      expect(JSON.parse(String(attacked?.data.content))).toMatchObject({ result: "sent" });
      await eventually(async () => (await hits(`${mark}-done`)).length > 0, 20_000);
      const tabs = await tabsWhen(guarded, 3);
      expect(tabs.map((t) => [t.id, t.window_id])).toEqual([
        [1, 1],
        [2, 1],
        [3, 1],
      ]);
      for (const kind of KINDS)
        expect({ kind, seen: await hits(`${mark}-${kind}`) }).toEqual({ kind, seen: [] });
      // An adopted popup is guarded like any tab.
      const navigate = await tool(guarded, "open_tab", { tab_id: 2, url: outside("/hello") });
      expect(navigate).toMatchObject({ status: 422, error: { code: "navigation_refused" } });
      expect((await ok(guarded, "open_tab", { tab_id: 2, url: page("/hello") })).title).toBe("Hello");

      // A conversation without allowed_domains on the same browser session goes there freely.
      const free = await createConversation("echo");
      await ok(free, "open_tab", { url: outside("/hello") });
      expect(await sessionIdOf(free)).toBe(await sessionIdOf(guarded));
      await ok(free, "execute_script", {
        target: "page",
        world: "MAIN",
        code: `window.open(${JSON.stringify(hitUrl(`${mark}-free-popup`, outside))}); fetch(${JSON.stringify(hitUrl(`${mark}-free-fetch`, outside))}, { mode: "no-cors" }); 1`,
      });
      await eventually(async () => (await hits(`${mark}-free-popup`)).length > 0, 20_000);
      await eventually(async () => (await hits(`${mark}-free-fetch`)).length > 0, 20_000);
      const freeTabs = await tabsWhen(free, 2);
      expect(freeTabs[1].url).toBe(hitUrl(`${mark}-free-popup`, outside));
    },
    2 * T,
  );

  it(
    "never requests a private address for a page's popups, frames, posts, redirects, fetches or workers; another conversation on the same browser still may",
    async () => {
      // A workspace of its own: a fresh fleet, so both conversations share its first browser.
      const ws = await newWorkspaceKey(uniqueKey("private-ws"));
      const call = (conv: string, name: string, args: Record<string, unknown>) =>
        callIn(ws.key, conv, name, args);
      const conv = await createConversation("echo", {}, ws.key);
      expect((await call(conv, "open_tab", { url: "about:blank" })).status).toBe(200);
      await refusePrivateNetwork(conv, ws.id);
      const refused = await call(conv, "open_tab", { url: page("/hello") });
      expect(refused).toMatchObject({ status: 422, error: { code: "navigation_refused" } });
      expect(refused.error?.message).toMatch(/points to a private or local address \(127\.0\.0\.1\)/);

      const mark = uniqueKey("private");
      const sent = await call(conv, "execute_script", {
        target: "page",
        world: "MAIN",
        code: attack((kind) => hitUrl(`${mark}-${kind}`), hitUrl(`${mark}-done`)),
      });
      expect({ status: sent.status, error: sent.error, result: sent.result?.result }).toEqual({
        status: 200,
        error: undefined,
        result: "sent",
      });
      // The fetch and the worker's fetch have settled (refused) in the page.
      await eventually(
        async () =>
          (await call(conv, "execute_script", { target: "page", world: "MAIN", code: "window.__settled" }))
            .result?.result,
        20_000,
      );
      const tabs = await eventually(async () => {
        const listed = (await call(conv, "list_tabs", {})).result.tabs as { id: number }[];
        return listed.length === 3 ? listed : null;
      }, 20_000);
      expect(tabs.map((t) => t.id)).toEqual([1, 2, 3]);

      // Another conversation on the same session is not under this one's rules.
      const other = await createConversation("echo", {}, ws.key);
      const opened = await call(other, "open_tab", { url: hitUrl(`${mark}-other`) });
      expect(opened.result?.title).toBe(`Hit ${mark}-other`);
      expect(await sessionIdOf(other, ws.id)).toBe(await sessionIdOf(conv, ws.id));
      expect(await hits(`${mark}-other`)).toEqual(["GET"]);
      for (const kind of [...KINDS, "done"])
        expect({ kind, seen: await hits(`${mark}-${kind}`) }).toEqual({ kind, seen: [] });
    },
    T,
  );

  it(
    "guards a kept browser's pages from the fleet's restart on: a page's request before any tool call is refused",
    async () => {
      const mark = uniqueKey("restart");
      const conv = await createConversation("echo", { allowed_domains: ["127.0.0.1"] });
      const later = `/guard/later?id=${mark}&to=${encodeURIComponent(hitUrl(`${mark}-after`, outside))}`;
      await ok(conv, "open_tab", { url: page(later) });
      // The page waits on the server for the test's word.
      await eventually(async () => {
        const held = (await (await fetch(page(`/guard/held?id=${mark}`))).json()) as { waiting: number };
        return held.waiting === 1;
      }, 20_000);

      // The fleet object alone restarts (the Browser Rendering session lives on, unwatched).
      await runInDurableObject(fleetObject(), (_obj, state) => state.abort("restart")).catch(() => {});
      // The fleet wakes on its own (its alarm), before any tool call of the conversation.
      expect(await runDurableObjectAlarm(fleetObject())).toBe(true);
      await fetch(page(`/guard/release?id=${mark}`));
      await eventually(async () => (await hits(`${mark}-done`)).length > 0, 20_000);
      expect(await hits(`${mark}-after`)).toEqual([]);
      // The tab is the same page, still listed under its id.
      const tabs = (await ok(conv, "list_tabs")).tabs as { id: number; url: string }[];
      expect(tabs.map((t) => [t.id, t.url])).toEqual([[1, page(later)]]);
    },
    T,
  );
  it(
    "guards a context the browser made ahead (its spare): the first page of the conversation that takes it never requests a host outside allowed_domains",
    async () => {
      // A workspace of its own: a fresh fleet with one browser.
      const ws = await newWorkspaceKey(uniqueKey("spare-ws"));
      const call = (conv: string, name: string, args: Record<string, unknown>) =>
        callIn(ws.key, conv, name, args);
      const rules = { allowed_domains: ["127.0.0.1"] };
      // A conversation free to go anywhere keeps a context on the browser throughout.
      const free = await createConversation("echo", {}, ws.key);
      expect((await call(free, "open_tab", { url: outside("/hello") })).status).toBe(200);
      // A spare is made under the rules of the newest conversation that got a context; that one then leaves.
      const first = await createConversation("echo", rules, ws.key);
      expect((await call(first, "open_tab", { url: page("/hello") })).status).toBe(200);
      const spare = await eventually(() => spareContextId(ws.id), 30_000);
      expect((await api(`/v1/conversations/${first}`, { method: "DELETE", token: ws.key })).status).toBe(200);

      const mark = uniqueKey("spare");
      const guarded = await createConversation("echo", rules, ws.key);
      const later = `/guard/later?id=${mark}&to=${encodeURIComponent(hitUrl(`${mark}-after`, outside))}`;
      const opened = await call(guarded, "open_tab", { url: page(later) });
      expect(opened.status).toBe(200);
      // Its context is the one made ahead; the free conversation's is another.
      expect(await contextIdOf(guarded, ws.id)).toBe(spare);
      expect(await contextIdOf(free, ws.id)).not.toBe(spare);
      expect(await sessionIdOf(guarded, ws.id)).toBe(await sessionIdOf(free, ws.id));
      await fetch(page(`/guard/release?id=${mark}`));
      await eventually(async () => (await hits(`${mark}-done`)).length > 0, 20_000);
      expect(await hits(`${mark}-after`)).toEqual([]);
    },
    T,
  );
});
