import {
  createExecutionContext,
  createScheduledController,
  runInDurableObject,
  waitOnExecutionContext,
} from "cloudflare:test";
import { describe, expect, it } from "vitest";
import {
  LEGACY_CORS_INSTANCE,
  type OriginRegistry,
} from "../../../durable-objects/origin-registry/origin-registry-object";
import worker from "../../../worker/index";
import { unwrap } from "../../../worker/errors";
import { api, env } from "../helpers";

/** An origin no other test uses, so its registry object starts empty. */
const freshOrigin = (name: string) => `https://${name}-${crypto.randomUUID().slice(0, 8)}.example`;

const workspaceStub = (id: string) => env.WORKSPACES.get(env.WORKSPACES.idFromName(id));
const originStub = (origin: string) => env.ORIGINS.get(env.ORIGINS.idFromName(origin));

async function newWorkspace(): Promise<string> {
  const res = await api("/v1/workspaces", { method: "POST", json: { name: "hot" } });
  return ((await res.json()) as { id: string }).id;
}

async function publishableKey(ws: string, origins: string[]): Promise<{ key: string; id: string }> {
  const res = await api(`/v1/workspaces/${ws}/keys`, {
    method: "POST",
    json: { name: "site", type: "publishable", allowed_origins: origins },
  });
  expect(res.status).toBe(201);
  return (await res.json()) as { key: string; id: string };
}

function preflight(origin: string) {
  return api("/v1/widget/session", {
    method: "OPTIONS",
    token: null,
    headers: {
      origin,
      "access-control-request-method": "POST",
      "access-control-request-headers": "authorization",
    },
  });
}

function openSession(pk: string, origin: string) {
  return api("/v1/widget/session", { method: "POST", token: pk, headers: { origin } });
}

/** The rows the retired global list (`__cors__`) holds, as the code before the split wrote them. */
async function plantLegacyRow(origin: string, keyRef: string): Promise<void> {
  await runInDurableObject(workspaceStub(LEGACY_CORS_INSTANCE), (_obj, state) => {
    state.storage.sql.exec(`CREATE TABLE IF NOT EXISTS cors_origins (origin TEXT NOT NULL, key_ref TEXT NOT NULL,
      PRIMARY KEY (origin, key_ref))`);
    state.storage.sql.exec(
      "INSERT OR IGNORE INTO cors_origins (origin, key_ref) VALUES (?, ?)",
      origin,
      keyRef,
    );
  });
}

/** Whether the isolate believes the retired list drained (set by the first origin that asks it). */
async function setLegacyDrained(drained: boolean): Promise<void> {
  await runInDurableObject(originStub("https://seam.example"), (obj: OriginRegistry) => {
    (obj.constructor as typeof OriginRegistry).legacyDrained = drained;
  });
}

async function cronSweep(): Promise<void> {
  const ctx = createExecutionContext();
  await worker.scheduled(createScheduledController({ cron: "*/10 * * * *" }), env, ctx);
  await waitOnExecutionContext(ctx);
}

const tablesOf = (stub: DurableObjectStub) =>
  runInDurableObject(stub, (_obj, state) =>
    state.storage.sql
      .exec<{ name: string }>(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE '\\_%' ESCAPE '\\'",
      )
      .toArray()
      .map((t) => t.name),
  );

describe("the widget's hot path", () => {
  it("answers a site's preflights from its own origin's object, not from a global list", async () => {
    const site = freshOrigin("shop");
    const ws = await newWorkspace();
    const pk = await publishableKey(ws, [site]);
    const ok = await preflight(site);
    expect(ok.status).toBe(204);
    expect(ok.headers.get("access-control-allow-origin")).toBe(site);
    const refs = await runInDurableObject(originStub(site), (_obj, state) =>
      state.storage.sql.exec<{ key_ref: string }>("SELECT key_ref FROM key_refs").toArray(),
    );
    expect(refs).toEqual([{ key_ref: `${ws}/${pk.id}` }]);

    // Once the origin's object is set up, a row in the retired global list changes nothing.
    await plantLegacyRow(site, `${ws}/key_planted`);
    const del = await api(`/v1/workspaces/${ws}/keys/${pk.id}`, { method: "DELETE" });
    expect(del.status).toBe(200);
    const refused = await preflight(site);
    expect(refused.status).toBe(403);
    expect(refused.headers.get("access-control-allow-origin")).toBeNull();
  });

  it("admits widget requests from the key's workspace alone, without any origin list", async () => {
    const site = freshOrigin("direct");
    const ws = await newWorkspace();
    // Made straight in the workspace object: no origin registry knows this key.
    const key = unwrap(await workspaceStub(ws).createKey("direct", "publishable", [site]));
    expect((await preflight(site)).status).toBe(403);
    const res = await openSession(key.key, site);
    expect(res.status).toBe(201);
    expect(res.headers.get("access-control-allow-origin")).toBe(site);
    expect(((await res.json()) as { conversation_id: string }).conversation_id).toMatch(/^conv_/);
  });

  it("keeps the preflights of keys registered in the retired global list passing", async () => {
    const site = freshOrigin("legacy");
    const ws = await newWorkspace();
    const key = unwrap(await workspaceStub(ws).createKey("old", "publishable", [site]));
    await plantLegacyRow(site, `${ws}/${key.id}`);
    await setLegacyDrained(false); // as in the first minutes after the deploy
    const ok = await preflight(site);
    expect(ok.status).toBe(204);
    expect(ok.headers.get("access-control-allow-origin")).toBe(site);
    expect((await openSession(key.key, site)).status).toBe(201);

    // Revoking it through the API clears the copied row.
    expect((await api(`/v1/workspaces/${ws}/keys/${key.id}`, { method: "DELETE" })).status).toBe(200);
    expect((await preflight(site)).status).toBe(403);
  });

  it("refuses a key past its limit with 429 from the rate limiter, and spares the workspace's other keys", async () => {
    const site = freshOrigin("busy");
    const ws = await newWorkspace();
    const busy = await publishableKey(ws, [site]);
    const calm = await publishableKey(ws, [site]);
    let limited: Response | null = null;
    let admitted = 0;
    // 60 per 60 s in the tests; twice that bounds a loop that straddles a window's end.
    for (let i = 0; i < 121 && !limited; i++) {
      const res = await openSession(busy.key, site);
      if (res.status === 429) limited = res;
      else {
        expect(res.status).toBe(201);
        admitted++;
      }
    }
    expect(limited).not.toBeNull();
    expect(admitted).toBeGreaterThanOrEqual(60);
    expect(limited!.headers.get("retry-after")).toBe("60");
    expect(limited!.headers.get("access-control-allow-origin")).toBe(site);
    expect(await limited!.json()).toEqual({
      error: { code: "rate_limited", message: "Too many requests for this key; retry in 60 s." },
    });
    expect((await openSession(calm.key, site)).status).toBe(201);
    // No counter lives in the workspace object.
    const tables = await runInDurableObject(workspaceStub(ws), (_obj, state) =>
      state.storage.sql
        .exec<{ name: string }>(
          "SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'rate_windows'",
        )
        .toArray(),
    );
    expect(tables).toEqual([]);
  });

  it("serves the widget's look from the isolate's cache and shows a change made through the API at once", async () => {
    const site = freshOrigin("look");
    const ws = await newWorkspace();
    const pk = await publishableKey(ws, [site]);
    const sk = (await (
      await api(`/v1/workspaces/${ws}/keys`, { method: "POST", json: { name: "server" } })
    ).json()) as {
      key: string;
    };
    const look = () => api("/v1/widget/config", { token: pk.key, headers: { origin: site } });
    const put = (title: string) =>
      api("/v1/settings", { method: "PUT", token: sk.key, json: { widget: { title } } });
    expect((await put("First")).status).toBe(200);
    expect(((await (await look()).json()) as { title: string }).title).toBe("First");
    // Written behind the API's back: the cached look is still served.
    await runInDurableObject(workspaceStub(ws), (obj) => obj.updateSettings({ widget: { title: "Hidden" } }));
    expect(((await (await look()).json()) as { title: string }).title).toBe("First");
    // Through the API, the change shows on the next read.
    expect((await put("Second")).status).toBe(200);
    expect(((await (await look()).json()) as { title: string }).title).toBe("Second");
  });

  it("drains the retired global list into each origin's own object on the Cron Trigger", async () => {
    const [a, b] = [freshOrigin("drain-a"), freshOrigin("drain-b")];
    const ws = await newWorkspace();
    const keyA = unwrap(await workspaceStub(ws).createKey("a", "publishable", [a]));
    const keyB = unwrap(await workspaceStub(ws).createKey("b", "publishable", [b]));
    await plantLegacyRow(a, `${ws}/${keyA.id}`);
    await plantLegacyRow(b, `${ws}/${keyB.id}`);
    await cronSweep();
    for (const [origin, key] of [
      [a, keyA],
      [b, keyB],
    ] as const) {
      const refs = await runInDurableObject(originStub(origin), (_obj, state) =>
        state.storage.sql.exec<{ key_ref: string }>("SELECT key_ref FROM key_refs").toArray(),
      );
      expect(refs).toEqual([{ key_ref: `${ws}/${key.id}` }]);
      expect((await preflight(origin)).status).toBe(204);
    }
    expect(await tablesOf(workspaceStub(LEGACY_CORS_INSTANCE))).not.toContain("cors_origins");
  });

  it("stores nothing for an origin no key allows, and asks no global list once it is drained", async () => {
    await cronSweep();
    const stranger = freshOrigin("stranger");
    const refused = await preflight(stranger);
    expect(refused.status).toBe(403);
    expect(await refused.json()).toEqual({
      error: { code: "forbidden", message: "This origin is not allowed by any publishable key." },
    });
    expect(await tablesOf(originStub(stranger))).toEqual([]);
    // A row the retired list could no longer hold is not read: nothing asks it any more.
    const late = freshOrigin("late");
    await plantLegacyRow(late, "ws-x/key_x");
    expect((await preflight(late)).status).toBe(403);
  });
});
