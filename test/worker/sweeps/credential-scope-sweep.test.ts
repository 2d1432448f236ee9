/**
 * Each credential reaches only its scope, for every operation of `/openapi.json` (called with a
 * real workspace's ids and valid bodies): no key or a made-up one is 401; a publishable key from
 * another origin is 403 everywhere; a publishable key without a visitor reaches the widget's two
 * entry routes only; a visitor reaches nothing of the owner's conversation and, on its own, only
 * the widget's conversation routes; a workspace's secret key is refused the admin routes (403).
 * Every refusal is in the one error shape.
 */
import { describe, expect, it } from "vitest";
import { api } from "../helpers";
import { isError, type Operation, operations, requestOf, textOf } from "./operations";
import { type Fixture, SHOP, pathValues, workspaceWithEverything } from "./workspace-fixtures";

interface Credential {
  name: string;
  token: string | null;
  headers?: Record<string, string>;
  /** The conversation its ids name (default: the owner's). */
  conversation?: string;
  /** What it gets on an operation: 401, 403, or the operation is in its scope (null: not swept). */
  expects(op: string): 401 | 403 | number | null;
  /** A new key (and visitor) of the same kind: the widget's rate limits count per key and visitor. */
  renew?: () => Promise<Pick<Credential, "token" | "headers" | "conversation">>;
}

/** Requests a widget credential makes before it is renewed (the test limits: 60 a key, 25 a visitor). */
const RENEW_EVERY = 20;

/** A new publishable key of the workspace, for SHOP, and (when asked) a visitor of it. */
async function widgetKey(
  a: Fixture,
  visitor: boolean,
): Promise<Pick<Credential, "token" | "headers" | "conversation">> {
  const res = await api(`/v1/workspaces/${a.workspace}/keys`, {
    method: "POST",
    json: { name: "scope", type: "publishable", allowed_origins: [SHOP] },
  });
  const token = ((await res.json()) as { key: string }).key;
  if (!visitor) return { token, headers: { origin: SHOP } };
  const session = await api("/v1/widget/session", { method: "POST", token, headers: { origin: SHOP } });
  const s = (await session.json()) as { conversation_id: string; visitor_token: string };
  return {
    token,
    headers: { origin: SHOP, "x-visitor-token": s.visitor_token },
    conversation: s.conversation_id,
  };
}

/** What a publishable key opens, without a visitor: a session and the widget's look. */
const PUBLISHABLE_OPEN: Record<string, number> = {
  "POST /v1/widget/session": 201,
  "GET /v1/widget/config": 200,
};

/**
 * A visitor's own conversation routes, in its scope by design (widget-access.test.ts and
 * visitor-policy.test.ts drive them): not swept here. The live view and input of a tab are swept:
 * without a take-over handing the visitor that tab they are 403 too.
 */
const VISITOR_OWN: Record<string, string> = {
  "POST /v1/conversations/{id}/messages": "sends the visitor's message (starts a run)",
  "GET /v1/conversations/{id}/events": "the visitor's event stream",
  "POST /v1/conversations/{id}/answer": "answers the agent's question to the visitor",
  "POST /v1/conversations/{id}/cancel": "stops the visitor's run",
  "POST /v1/conversations/{id}/takeover/{takeover_id}/done": "ends a take-over handed to the visitor",
  "GET /v1/conversations/{id}/files/{path}": "downloads a file the visitor's agent wrote",
};

function credentials(a: Fixture): Credential[] {
  return [
    { name: "no key", token: null, expects: () => 401 },
    { name: "a made-up key", token: `sk_${a.workspace}_${"x".repeat(32)}`, expects: () => 401 },
    {
      name: "publishable, other origin",
      token: a.pk,
      headers: { origin: "https://evil.example" },
      expects: () => 403,
    },
    {
      name: "publishable",
      token: null,
      expects: (op) => PUBLISHABLE_OPEN[op] ?? 403,
      renew: () => widgetKey(a, false),
    },
    {
      name: "visitor, on the owner's conversation",
      token: null,
      expects: (op) => (op === "GET /v1/widget/config" ? 200 : 403),
      // The visitor's own conversation is not used: every id names the owner's.
      renew: async () => ({ ...(await widgetKey(a, true)), conversation: a.conversation }),
    },
    {
      name: "visitor, on its own conversation",
      token: null,
      expects: (op) => (op in VISITOR_OWN ? null : op === "GET /v1/widget/config" ? 200 : 403),
      renew: () => widgetKey(a, true),
    },
    {
      name: "a workspace's secret key",
      token: a.key,
      expects: (op) => (op.includes(" /v1/workspaces") ? 403 : null),
    },
  ];
}

/** Calls every operation with a credential; the answers that were not what it expects. */
async function sweep(a: Fixture, ops: Operation[], cred: Credential): Promise<string[]> {
  const wrong: string[] = [];
  let made = 0;
  for (const op of ops) {
    const name = `${op.method} ${op.template}`;
    const expected = cred.expects(name);
    if (expected === null) continue;
    if (cred.renew && made++ % RENEW_EVERY === 0) Object.assign(cred, await cred.renew());
    const req = requestOf(op, pathValues(a, cred.conversation));
    const res = await api(req.path, { ...req, headers: cred.headers, token: cred.token });
    const text = await textOf(res);
    const code = expected === 401 ? "unauthorized" : "forbidden";
    const shaped = expected >= 400 ? isError(text, code) : true;
    // A refusal says nothing of the workspace (the widget's look is public by design).
    if (res.status !== expected || !shaped || (expected >= 400 && text.includes(a.mark)))
      wrong.push(`${cred.name}: ${name} → ${res.status} (expected ${expected}) ${text.slice(0, 120)}`);
  }
  return wrong;
}

describe("every credential on every operation", () => {
  it("reaches only its own scope", async () => {
    const a = await workspaceWithEverything("zqscope");
    const ops = (await operations()).filter((op) => op.method !== "DELETE" || op.params.length > 0);
    const wrong: string[] = [];
    for (const cred of credentials(a)) wrong.push(...(await sweep(a, ops, cred)));
    expect(wrong).toEqual([]);
    // Every credential refused the owner's resources: the owner still reads them.
    expect((await api(`/v1/conversations/${a.conversation}`, { token: a.key })).status).toBe(200);
    expect((await api(`/v1/jobs/${a.job}`, { token: a.key })).status).toBe(200);
  });
});
