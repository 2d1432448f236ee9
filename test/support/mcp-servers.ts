/**
 * The MCP servers the workerd tests talk to, on 127.0.0.1: the SDK's reference server
 * (`@modelcontextprotocol/server-everything`) over Streamable HTTP and, for the fallback, over
 * the older HTTP+SSE transport — both as child processes, as users run them — and our own test
 * server twice: behind a bearer token and behind OAuth with a local authorization server.
 * Each exposes `/control/*` for the tests.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { mcpAuthRouter } from "@modelcontextprotocol/sdk/server/auth/router.js";
import express from "express";
import { keepIdleConnections } from "./keep-alive.ts";
import { TestOAuthProvider } from "./mcp-oauth-server.ts";
import { createTestMcpHandler } from "./mcp-test-server.ts";

/** The bearer token the test server wants. */
export const MCP_TEST_TOKEN = "mcp-test-token-7f3a9c";

/** URLs of the running servers. */
export interface McpServerUrls {
  everything: string;
  everythingSse: string;
  bearer: string;
  oauth: string;
}

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((r) => probe.listen(0, "127.0.0.1", r));
  const { port } = probe.address() as AddressInfo;
  await new Promise((r) => probe.close(r));
  return port;
}

/** Starts server-everything in one of its transports and waits until it listens. */
async function startEverything(
  mode: "streamableHttp" | "sse",
): Promise<{ url: string; child: ChildProcess }> {
  const port = await freePort();
  const entry = new URL(
    "../../node_modules/@modelcontextprotocol/server-everything/dist/index.js",
    import.meta.url,
  );
  const child = spawn(process.execPath, [entry.pathname, mode], {
    env: { ...process.env, PORT: String(port) },
    stdio: ["ignore", "ignore", "pipe"],
  });
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server-everything ${mode} did not start`)), 20_000);
    child.stderr!.on("data", (d: Buffer) => {
      if (/listening|running/i.test(d.toString())) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.on("exit", (code) => reject(new Error(`server-everything ${mode} exited (${code})`)));
  });
  return { url: `http://127.0.0.1:${port}/${mode === "sse" ? "sse" : "mcp"}`, child };
}

type Handler = ReturnType<typeof createTestMcpHandler>;

/**
 * Mounts the MCP endpoint and its controls once per tenant (`/t/<tenant>/mcp`; `/mcp` is the
 * tenant `default`), so test files running at the same time never share a server's state.
 */
function mountTenants(app: express.Express, make: () => Handler): void {
  const tenants = new Map<string, Handler>();
  const of = (tenant = "default") => {
    let h = tenants.get(tenant);
    if (!h) {
      h = make();
      tenants.set(tenant, h);
    }
    return h;
  };
  const actions: Record<string, (h: Handler) => void> = {
    down: (h) => h.down(),
    up: (h) => h.up(),
    "forget-sessions": (h) => h.forgetSessions(),
  };
  const control = (req: express.Request, res: express.Response) => {
    const h = of(req.params.tenant as string | undefined);
    const action = req.params.action as string;
    if (action === "log") {
      res.json(h.log);
      return;
    }
    if (!actions[action]) {
      res.status(404).json({ error: "unknown control" });
      return;
    }
    actions[action](h);
    res.json({ ok: true });
  };
  app.all(["/control/:action", "/t/:tenant/control/:action"], control);
  app.all(["/mcp", "/t/:tenant/mcp"], (req, res) => {
    void of(req.params.tenant as string | undefined).handle(req, res, req.body);
  });
}

async function listen(app: express.Express): Promise<{ server: Server; origin: string }> {
  const server = keepIdleConnections(createServer(app));
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

/** Our test server behind a bearer token (the bench starts it alone). */
export async function startBearer(): Promise<{ server: Server; origin: string }> {
  const app = express();
  app.use(express.json());
  mountTenants(app, () => createTestMcpHandler({ bearer: MCP_TEST_TOKEN }));
  return listen(app);
}

/** Our test server behind OAuth, with its own authorization server on the same origin. */
async function startOAuth() {
  const provider = new TestOAuthProvider();
  let origin = "";
  const app = express();
  app.use((req, res, next) => (/\/mcp$/.test(req.path) ? express.json()(req, res, next) : next()));
  app.post("/oauth-control/expire-tokens", (_q, r) => {
    provider.expireAll();
    r.json({ ok: true });
  });
  app.post("/oauth-control/expires-in/:s", (q, r) => {
    provider.expiresIn = Number(q.params.s);
    r.json({ ok: true });
  });
  app.get("/oauth-control/stats", (_q, r) => {
    r.json(provider.stats);
  });
  const started = await listen(app);
  origin = started.origin;
  app.use(
    mcpAuthRouter({
      provider,
      issuerUrl: new URL(origin),
      resourceServerUrl: new URL(`${origin}/mcp`),
      resourceName: "cirrus test",
    }),
  );
  mountTenants(app, () =>
    createTestMcpHandler({
      verify: (t) => provider.valid(t),
      resourceMetadataUrl: () => `${origin}/.well-known/oauth-protected-resource/mcp`,
    }),
  );
  return started;
}

/** Starts every MCP server; returns their URLs and a function that stops them all. */
export async function startMcpServers(): Promise<{ urls: McpServerUrls; close(): Promise<void> }> {
  const [everything, everythingSse, bearer, oauth] = await Promise.all([
    startEverything("streamableHttp"),
    startEverything("sse"),
    startBearer(),
    startOAuth(),
  ]);
  return {
    urls: {
      everything: everything.url,
      everythingSse: everythingSse.url,
      bearer: `${bearer.origin}/mcp`,
      oauth: `${oauth.origin}/mcp`,
    },
    async close() {
      for (const c of [everything.child, everythingSse.child]) c.kill("SIGTERM");
      for (const s of [bearer.server, oauth.server]) s.closeAllConnections();
      await Promise.all([bearer.server, oauth.server].map((s) => new Promise((r) => s.close(r))));
    },
  };
}
