/**
 * One MCP client connection to one server, built on the official SDK: Streamable HTTP first,
 * the older HTTP+SSE transport when the server does not speak it. The Streamable HTTP session
 * (its id and protocol version) is kept in a {@link SessionStore}, so a later connection — after
 * the Durable Object hibernated or restarted — resumes it without a new `initialize`; when the
 * server has forgotten it, the connection is initialised again transparently. Every request goes
 * through the SSRF guard; credentials are added per request and replaced after a 401.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { SSEClientTransport } from "@modelcontextprotocol/sdk/client/sse.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { type CallToolResult, ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { CfWorkerJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/cfworker";
import { httpStatusOf, unavailable } from "./connection-errors";
import { guardedFetch } from "./guarded-fetch";
import { type McpToolInfo, McpUnavailable, type SessionRecord, type SessionStore } from "./mcp-types";

/** How long connecting (initialize or resume) may take. */
export const CONNECT_TIMEOUT_MS = 10_000;
/** Pages of tools/list read at most (a server with more is reported, not silently cut). */
export const MAX_TOOL_PAGES = 20;

/** Where and how to reach one server. */
export interface ServerEndpoint {
  id: string;
  name: string;
  url: string;
  /** Request headers (configured ones and an OAuth bearer); never logged or shown. */
  headers: Record<string, string>;
}

/** What a connection needs from its host. */
export interface ConnectionDeps {
  allowPrivateNetwork: boolean;
  /** Keeps the session across restarts; absent = a new session each time. */
  sessions?: SessionStore;
  /** Fresh headers after the server answered 401 (an OAuth refresh), or null when it needs signing in again. */
  reauthorize?(): Promise<Record<string, string> | null>;
  /** Told when the server announced `notifications/tools/list_changed` and the list was read again. */
  onToolsChanged?(tools: McpToolInfo[]): void;
  /** The RFC 9728 metadata URL a 401 named (for OAuth discovery). */
  onResourceMetadata?(url: string): void;
  fetcher?: typeof fetch;
}

const CLIENT_INFO = { name: "cirrus", version: "0.1.0" };

export { describeError, httpStatusOf } from "./connection-errors";

/** A live connection to one MCP server. */
export class McpConnection {
  private client: Client | null = null;
  private transportKind: SessionRecord["transport"] = "streamable_http";
  private headers: Record<string, string>;

  private constructor(
    readonly server: ServerEndpoint,
    private readonly deps: ConnectionDeps,
  ) {
    this.headers = { ...server.headers };
  }

  /** Connects (resuming a stored session when there is one); throws {@link McpUnavailable}. */
  static async open(server: ServerEndpoint, deps: ConnectionDeps): Promise<McpConnection> {
    const conn = new McpConnection(server, deps);
    await conn.connect();
    return conn;
  }

  /** The server's tools, every page. */
  async listTools(signal?: AbortSignal): Promise<McpToolInfo[]> {
    return this.withSession(async (client) => {
      const tools: McpToolInfo[] = [];
      let cursor: string | undefined;
      for (let page = 0; page < MAX_TOOL_PAGES; page++) {
        const res = await client.listTools(cursor ? { cursor } : {}, { signal, timeout: CONNECT_TIMEOUT_MS });
        for (const t of res.tools) {
          tools.push({
            name: t.name,
            description: t.description ?? t.title ?? "",
            input_schema: t.inputSchema,
          });
        }
        cursor = res.nextCursor;
        if (!cursor) return tools;
      }
      throw new McpUnavailable(
        "too_many_tools",
        `${this.server.name} lists more than ${MAX_TOOL_PAGES} pages of tools.`,
      );
    });
  }

  /** Calls a tool; the SDK's own request timeout is lifted to the caller's. */
  async callTool(
    name: string,
    args: Record<string, unknown>,
    opts: { signal?: AbortSignal; timeoutMs: number },
  ): Promise<CallToolResult> {
    return this.withSession(
      async (client) =>
        (await client.callTool({ name, arguments: args }, undefined, {
          signal: opts.signal,
          timeout: opts.timeoutMs,
        })) as CallToolResult,
    );
  }

  /** The id of the session in use (null for servers without sessions). */
  sessionId(): string | null {
    const t = this.client?.transport;
    return t instanceof StreamableHTTPClientTransport ? (t.sessionId ?? null) : null;
  }

  /** Closes the HTTP streams; the session itself stays (the next connection resumes it). */
  async close(): Promise<void> {
    const client = this.client;
    this.client = null;
    await client?.close().catch(() => {});
  }

  /** Runs a request; re-initialises once when the session is gone, re-authorises once on 401. */
  private async withSession<T>(fn: (client: Client) => Promise<T>): Promise<T> {
    if (!this.client) await this.connect();
    try {
      return await fn(this.client!);
    } catch (err) {
      const status = httpStatusOf(err);
      if (status === 401 && this.deps.reauthorize) {
        await this.reauthorize();
        return fn(this.client!);
      }
      if ((status === 404 || status === 400) && this.sessionId()) {
        // The server forgot the session (restart, expiry): start a new one and try once more.
        this.deps.sessions?.clear(this.server.id);
        await this.close();
        await this.connect();
        return fn(this.client!);
      }
      throw err;
    }
  }

  private async reauthorize(): Promise<void> {
    const fresh = await this.deps.reauthorize!();
    if (!fresh) {
      throw new McpUnavailable(
        "needs_auth",
        `${this.server.name} refused the connection (HTTP 401); it needs valid credentials or an OAuth connection.`,
      );
    }
    this.headers = { ...fresh };
  }

  /** Resumes the stored session, else initialises one (Streamable HTTP, then HTTP+SSE). */
  private async connect(): Promise<void> {
    const stored = this.deps.sessions?.get(this.server.id) ?? null;
    if (stored?.transport === "streamable_http" && (await this.resume(stored))) return;
    try {
      await this.initialize("streamable_http");
    } catch (err) {
      const status = httpStatusOf(err);
      if (status === 401 && this.deps.reauthorize) {
        await this.reauthorize();
        return this.initialize("streamable_http");
      }
      if (status === 401 || status === 403) throw unavailable(this.server, err, "needs_auth");
      if (status !== null && status >= 400 && status < 500) {
        // An older server: the HTTP+SSE transport (protocol 2024-11-05).
        try {
          return await this.initialize("sse");
        } catch (sseErr) {
          throw unavailable(this.server, sseErr);
        }
      }
      throw unavailable(this.server, err);
    }
  }

  /** Reattaches to a stored session; false when the server no longer knows it. */
  private async resume(stored: SessionRecord): Promise<boolean> {
    const transport = new StreamableHTTPClientTransport(new URL(this.server.url), {
      sessionId: stored.session_id,
      fetch: this.fetcher(),
    });
    if (stored.protocol_version) transport.setProtocolVersion(stored.protocol_version);
    const client = this.newClient();
    await client.connect(transport); // with a session id the SDK sends no initialize
    try {
      await client.ping({ timeout: CONNECT_TIMEOUT_MS });
    } catch (err) {
      await client.close().catch(() => {});
      const status = httpStatusOf(err);
      if (status === 401 && this.deps.reauthorize) {
        await this.reauthorize();
        return this.resume(stored);
      }
      if (status === 404 || status === 400) {
        this.deps.sessions?.clear(this.server.id);
        return false;
      }
      throw unavailable(this.server, err);
    }
    this.client = client;
    this.listenForChanges(transport);
    return true;
  }

  private async initialize(kind: SessionRecord["transport"]): Promise<void> {
    const url = new URL(this.server.url);
    const transport: Transport =
      kind === "sse"
        ? new SSEClientTransport(url, { fetch: this.fetcher() })
        : new StreamableHTTPClientTransport(url, { fetch: this.fetcher() });
    const client = this.newClient();
    await client.connect(transport, { timeout: CONNECT_TIMEOUT_MS });
    this.client = client;
    this.transportKind = kind;
    if (transport instanceof StreamableHTTPClientTransport && transport.sessionId) {
      this.deps.sessions?.set(this.server.id, {
        session_id: transport.sessionId,
        protocol_version: transport.protocolVersion ?? null,
        transport: kind,
      });
    }
  }

  private newClient(): Client {
    // The SDK's default validator (Ajv) compiles code from strings, which deployed Workers refuse.
    const client = new Client(CLIENT_INFO, {
      capabilities: {},
      jsonSchemaValidator: new CfWorkerJsonSchemaValidator(),
    });
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      void this.listTools()
        .then((tools) => this.deps.onToolsChanged?.(tools))
        .catch(() => {});
    });
    client.onerror = () => {}; // stream hiccups are retried by the SDK or surface on the next request
    return client;
  }

  /** A resumed session gets the server's notification stream too (the SDK opens it only after initialize). */
  private listenForChanges(transport: StreamableHTTPClientTransport): void {
    const start = (transport as unknown as { _startOrAuthSse?(o: object): Promise<void> })._startOrAuthSse;
    start?.call(transport, { resumptionToken: undefined }).catch(() => {});
  }

  /** fetch with the SSRF guard on every URL and the current credentials on every request. */
  private fetcher(): typeof fetch {
    return guardedFetch({
      base: this.deps.fetcher ?? fetch,
      allowPrivateNetwork: this.deps.allowPrivateNetwork,
      headers: () => this.headers,
      onResourceMetadata: (url) => this.deps.onResourceMetadata?.(url),
    });
  }

  /** Replaces the credentials sent with every request (e.g. a refreshed OAuth token). */
  setHeaders(headers: Record<string, string>): void {
    this.headers = { ...headers };
  }

  /** Which transport the connection speaks. */
  get transport(): SessionRecord["transport"] {
    return this.transportKind;
  }
}
