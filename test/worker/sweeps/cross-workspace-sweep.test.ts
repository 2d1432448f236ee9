/**
 * Another workspace's key reaches nothing of a workspace: workspace A holds one of every resource,
 * and B's key calls every operation of `/openapi.json` that takes an id in its path with A's ids
 * (every method, a valid body): each answers 404 `not_found` in the error shape (the admin-only
 * routes 403) and no response holds anything of A's. B's lists show none of A's items, ids of A's
 * given in a body are unknown to B, and afterwards A reads all of its resources unchanged. The
 * operations come from the API reference, so a route added later is swept too.
 */
import { describe, expect, it } from "vitest";
import { api, newWorkspaceKey } from "../helpers";
import { isError, type Operation, operations, requestOf, textOf } from "./operations";
import { type Fixture, SHOP, snapshot, pathValues, workspaceWithEverything } from "./workspace-fixtures";

/** Operations B may call on A's names with success: they write B's own resource of that name. */
const OWN_NAMESPACE: Record<string, string> = {
  "PUT /v1/secrets/{name}": "sets B's own secret of that name (names are per workspace)",
  "PUT /v1/files/{path}": "writes B's own file at that path (paths are per workspace)",
};

const rank = (op: Operation) =>
  `${op.method} ${op.template}` in OWN_NAMESPACE ? 2 : op.method === "DELETE" ? 1 : 0;

/** Admin-only routes: a workspace key is refused before any id is looked at. */
const adminOnly = (op: Operation) => op.template.startsWith("/v1/workspaces");

/** Everything of A's that must not appear in a response to B: its marker, workspace and ids. */
function leaksIn(a: Fixture, text: string, sent: string): string[] {
  // A 404's message may name the id B sent: that is B's own input, not A's data.
  let rest = text;
  for (const part of sent.split(/[/?&=]/).filter((p) => p.length > 3)) rest = rest.split(part).join("");
  const ids = [a.workspace, a.conversation, a.job, a.webhook, a.mcpServer, a.spareKeyId, a.pkId];
  return [a.mark, ...ids].filter((s) => rest.includes(s));
}

/** A publishable key of a workspace, for SHOP. */
async function publishableKey(workspace: string): Promise<string> {
  const res = await api(`/v1/workspaces/${workspace}/keys`, {
    method: "POST",
    json: { name: "site", type: "publishable", allowed_origins: [SHOP] },
  });
  return ((await res.json()) as { key: string }).key;
}

interface Outcome {
  op: string;
  status: number;
  text: string;
  path: string;
}

/** What an operation must answer to B: "" when it did, else what went wrong. */
function judge(a: Fixture, o: Outcome, op: Operation): string {
  const leaked = leaksIn(a, o.text, o.path);
  if (leaked.length) return `${o.op} → ${o.status}: leaks ${leaked.join(", ")}: ${o.text.slice(0, 160)}`;
  if (adminOnly(op)) return o.status === 403 && isError(o.text, "forbidden") ? "" : `${o.op} → ${o.status}`;
  if (o.op in OWN_NAMESPACE) return o.status < 300 ? "" : `${o.op} → ${o.status} ${o.text.slice(0, 160)}`;
  return o.status === 404 && isError(o.text, "not_found")
    ? ""
    : `${o.op} → ${o.status} ${o.text.slice(0, 160)}`;
}

/**
 * Routes outside the API reference: `/mcp` sessions are checked below; a signed file link
 * (`GET /files/<token>`) needs no key by design (its signature names the workspace and path), and
 * the MCP OAuth callback is reached with the `state` of a sign-in the workspace started.
 */
const mcpPost = (token: string, session: string | null, body: unknown) =>
  api("/mcp", {
    method: "POST",
    token,
    json: body,
    headers: {
      accept: "application/json, text/event-stream",
      ...(session ? { "mcp-session-id": session } : {}),
    },
  });

describe("another workspace's key", () => {
  it("reaches none of a workspace's resources through any operation, and changes nothing", async () => {
    const a = await workspaceWithEverything("zqalpha");
    const b = await newWorkspaceKey("zqbeta");
    const ops = await operations();
    const before = await snapshot(a);

    // Lists first (B's own upserts below would list names B chose).
    const lists = ops.filter((op) => op.method === "GET" && op.params.length === 0);
    const listed: string[] = [];
    const bPk = await publishableKey(b.id);
    for (const op of lists) {
      // The widget's routes are read with a publishable key (a secret key gets 403).
      const widget = op.template.startsWith("/v1/widget/");
      const headers = widget ? { origin: SHOP } : undefined;
      const res = await api(op.template, { token: widget ? bPk : b.key, headers });
      const text = await textOf(res);
      const leaked = leaksIn(a, text, "");
      if (res.status !== 200 || leaked.length) listed.push(`${op.template} → ${res.status} ${leaked}`);
    }
    expect(listed).toEqual([]);
    expect(lists.length).toBeGreaterThanOrEqual(12);

    const swept = ops
      .filter((op) => op.params.length > 0)
      // Deletions after the rest, and B's own writes of A's names last (B deleting its own is no finding).
      .sort((x, y) => rank(x) - rank(y));
    const wrong: string[] = [];
    for (const op of swept) {
      const req = requestOf(op, pathValues(a));
      const res = await api(req.path, { method: req.method, json: req.json, body: req.body, token: b.key });
      const o = {
        op: `${op.method} ${op.template}`,
        status: res.status,
        text: await textOf(res),
        path: req.path,
      };
      const verdict = judge(a, o, op);
      if (verdict) wrong.push(verdict);
    }
    expect(wrong).toEqual([]);
    expect(swept.length).toBeGreaterThanOrEqual(45);

    expect(await snapshot(a)).toEqual(before);
  });

  it("cannot name another workspace's resources in a body", async () => {
    const a = await workspaceWithEverything("zqgamma");
    const b = await newWorkspaceKey("zqdelta");
    const before = await snapshot(a);
    const tries: [string, unknown, number][] = [
      ["/v1/conversations", { browser_profile: `${a.mark}-profile` }, 400],
      ["/v1/conversations", { mcp_servers: [`${a.mark}-mcp`] }, 400],
      [
        "/v1/jobs",
        { name: "J", prompt: "P", schedule: "0 3 * * *", browser_profile: `${a.mark}-profile` },
        400,
      ],
      ["/v1/jobs", { name: "J", prompt: "P", schedule: "0 3 * * *", mcp_servers: [`${a.mark}-mcp`] }, 400],
    ];
    for (const [path, json, status] of tries) {
      const res = await api(path, { method: "POST", json, token: b.key });
      const text = await res.text();
      expect(res.status, `${path} ${JSON.stringify(json)}: ${text}`).toBe(status);
    }
    // An AG-UI thread named like A's conversation is B's own thread of that name.
    const agui = await api("/v1/agui", {
      method: "POST",
      token: b.key,
      json: {
        threadId: a.conversation,
        runId: "run-b",
        messages: [{ id: "m1", role: "user", content: "hi" }],
        tools: [],
        context: [],
        state: {},
        forwardedProps: {},
      },
    });
    expect(agui.status).toBe(200);
    expect(await agui.text()).not.toContain(a.mark);
    expect(await snapshot(a)).toEqual(before);
  });

  it("cannot use another workspace's session of Cirrus's own /mcp", async () => {
    const a = await newWorkspaceKey("zqmcpa");
    const b = await newWorkspaceKey("zqmcpb");
    const init = await mcpPost(a.key, null, {
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: {
        protocolVersion: "2025-06-18",
        capabilities: {},
        clientInfo: { name: "sweep", version: "1" },
      },
    });
    const session = init.headers.get("mcp-session-id");
    await init.body?.cancel();
    expect(session).toMatch(/^mcps_/);
    const list = await mcpPost(b.key, session, { jsonrpc: "2.0", id: 2, method: "tools/list" });
    // B's key names B's own (uninitialised) session of that id: A's is out of reach.
    expect(list.status).toBe(400);
    expect(await list.text()).toContain("Server not initialized");
    const own = await mcpPost(a.key, session, { jsonrpc: "2.0", id: 3, method: "tools/list" });
    expect(own.status).toBe(200);
    await own.body?.cancel();
  });
});
