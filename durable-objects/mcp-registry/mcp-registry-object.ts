/**
 * One Durable Object per workspace holding its MCP servers: their settings and sealed headers,
 * their last status and cached tool lists, and each server's OAuth state (registration, tokens,
 * a sign-in in progress). Conversations ask it for their servers (credentials decrypted, tokens
 * refreshed before they expire) and tell it when a server's tool list changed.
 */
import { DurableObject } from "cloudflare:workers";
import type { CreateMcpServer, McpServerView, UpdateMcpServer } from "../../schemas/mcp";
import { readEnv } from "../engine/config/env";
import { McpConnection } from "../engine/mcp/connection";
import type { McpServerConfig } from "../engine/mcp/mcp-toolset";
import { type McpToolInfo, McpUnavailable } from "../engine/mcp/mcp-types";
import { fail, ok, type RpcResult } from "../engine/rpc-result";
import { migrate } from "../engine/store/migrations";
import { MCP_REGISTRY_MIGRATIONS } from "./mcp-registry-schema";
import { OAuthFlows } from "./oauth-flows";
import type { Sealer } from "./oauth-provider";
import { randomToken } from "../engine/tokens";
import { changedServerRow, newServerRow } from "./server-changes";
import { registrySealer, serverHeaders, urlRefusal } from "./server-credentials";
import { MAX_MCP_SERVERS, type ServerRow, ServerStore } from "./server-store";
import { storedServerView } from "./server-view";

/** The Durable Object of one workspace's MCP servers. */
export class McpRegistry extends DurableObject<Env> {
  private readonly store: ServerStore;
  private readonly flows: OAuthFlows;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    migrate(ctx.storage, MCP_REGISTRY_MIGRATIONS);
    this.store = new ServerStore(ctx.storage.sql);
    this.flows = new OAuthFlows({
      store: this.store,
      sealer: this.sealer(),
      allowPrivateNetwork: this.allowPrivate(),
      publicBaseUrl: readEnv(env).PUBLIC_BASE_URL ?? null,
    });
  }

  /** Registers a server and connects to it once to read its tools; 409 past {@link MAX_MCP_SERVERS}. */
  async create(body: CreateMcpServer): Promise<RpcResult<McpServerView>> {
    if (this.store.byName(body.name))
      return fail(409, "name_taken", `An MCP server named ${body.name} exists already.`);
    const refused = this.refusal(body.url);
    if (refused) return fail(400, "invalid_url", refused);
    const now = Date.now();
    const id = `mcp_${randomToken(9)}`;
    const row = await newServerRow(id, body, this.sealer(), now);
    // Counted after the await, in the same step as the insert, so concurrent registrations cannot pass it.
    if (this.store.count() >= MAX_MCP_SERVERS)
      return fail(
        409,
        "too_many_mcp_servers",
        `A workspace holds at most ${MAX_MCP_SERVERS} MCP servers; delete one (DELETE /v1/mcp/servers/{id}) before registering another.`,
      );
    this.store.put(row);
    return ok(await this.connectAndList(id));
  }

  list(): McpServerView[] {
    return this.store.list().map((r) => this.viewOf(r));
  }

  get(id: string): McpServerView | null {
    const row = this.store.get(id);
    return row ? this.viewOf(row) : null;
  }

  /**
   * Changes a server; a new URL or client forgets its OAuth state and session-bound tools. A URL
   * on another origin without its headers or OAuth client given again drops the stored ones
   * (`credentials_cleared`): they were given for the old host only.
   */
  async update(
    id: string,
    patch: UpdateMcpServer,
  ): Promise<RpcResult<McpServerView & { credentials_cleared: boolean }>> {
    const row = this.store.get(id);
    if (!row) return fail(404, "not_found", `No MCP server ${id} in this workspace.`);
    if (patch.name && patch.name !== row.name && this.store.byName(patch.name)) {
      return fail(409, "name_taken", `An MCP server named ${patch.name} exists already.`);
    }
    if (patch.url) {
      const refused = this.refusal(patch.url);
      if (refused) return fail(400, "invalid_url", refused);
    }
    const change = await changedServerRow(row, patch, this.sealer(), Date.now());
    if (change.forgetOAuth) this.store.clearOAuth(id);
    this.store.put(change.row);
    const view = change.reconnect ? await this.connectAndList(id) : this.viewOf(change.row);
    return ok({ ...view, credentials_cleared: change.credentialsCleared });
  }

  delete(id: string): boolean {
    return this.store.delete(id);
  }

  /** Connects again and reads the tool list. */
  async refresh(id: string): Promise<RpcResult<McpServerView>> {
    if (!this.store.get(id)) return fail(404, "not_found", `No MCP server ${id} in this workspace.`);
    return ok(await this.connectAndList(id));
  }

  /** Starts an OAuth sign-in: the URL to open in a browser. */
  async authorize(
    id: string,
    workspaceId: string,
    origin: string,
  ): Promise<RpcResult<{ authorization_url: string; status: McpServerView["status"] }>> {
    const row = this.store.get(id);
    if (!row) return fail(404, "not_found", `No MCP server ${id} in this workspace.`);
    const result = await this.flows.start(row, workspaceId, origin);
    if (!result.ok) return result;
    this.setStatus(id, "needs_auth", null);
    return ok({ authorization_url: result.value, status: "needs_auth" as const });
  }

  /** Completes a sign-in from the OAuth callback, then connects and reads the tools. */
  async completeAuthorization(state: string, code: string): Promise<RpcResult<McpServerView>> {
    const id = this.store.serverForState(state);
    const row = id ? this.store.get(id) : null;
    if (!id || !row)
      return fail(400, "invalid_state", "This sign-in is unknown or was already used; start it again.");
    const done = await this.flows.complete(row, code);
    if (!done.ok) {
      this.setStatus(id, "needs_auth", done.message);
      return done;
    }
    return ok(await this.connectAndList(id));
  }

  /** The servers a conversation gets (all, or those named), credentials decrypted and fresh. */
  async forConversation(names: string[] | null): Promise<McpServerConfig[]> {
    const rows = this.store.list().filter((r) => !names || names.includes(r.name));
    return Promise.all(
      rows.map(async (r) => ({
        id: r.id,
        name: r.name,
        url: r.url,
        headers: await this.headersOf(r),
        allowed_tools: r.allowed_tools,
        ...(r.approval ? { approval: r.approval } : {}),
        status: r.status,
        tools: r.tools,
      })),
    );
  }

  /** Names of the registered servers (to check `mcp_servers` of conversations and jobs). */
  names(): string[] {
    return this.store.list().map((r) => r.name);
  }

  /** After a 401: refreshes the OAuth token; the new headers, or null when a new sign-in is needed. */
  async reauthorize(id: string): Promise<Record<string, string> | null> {
    const row = this.store.get(id);
    if (!row || !this.store.oauth(id).tokens) return null;
    const fresh = await this.flows.accessToken(row, { force: true });
    if (!fresh) {
      this.setStatus(
        id,
        "needs_auth",
        "The OAuth token was refused and could not be refreshed; connect again.",
      );
      return null;
    }
    return this.headersOf(row);
  }

  /** A conversation read a server's tools (first time or after list_changed): keep them. */
  saveTools(id: string, tools: McpToolInfo[]): void {
    const row = this.store.get(id);
    if (row) this.store.put({ ...row, tools, status: "connected", error: null, updated_at: Date.now() });
  }

  private async connectAndList(id: string): Promise<McpServerView> {
    const row = this.store.get(id)!;
    try {
      const conn = await McpConnection.open(
        { id, name: row.name, url: row.url, headers: await this.headersOf(row) },
        {
          allowPrivateNetwork: this.allowPrivate(),
          reauthorize: () => this.reauthorize(id),
          onResourceMetadata: (url) => this.store.patchOAuth(id, { resource_metadata: url }),
        },
      );
      try {
        const tools = await conn.listTools();
        this.store.put({
          ...this.store.get(id)!,
          tools,
          status: "connected",
          error: null,
          updated_at: Date.now(),
        });
      } finally {
        await conn.close();
      }
    } catch (err) {
      const needsAuth = err instanceof McpUnavailable && err.code === "needs_auth";
      this.setStatus(id, needsAuth ? "needs_auth" : "error", (err as Error).message);
    }
    return this.viewOf(this.store.get(id)!);
  }

  private headersOf(row: ServerRow): Promise<Record<string, string>> {
    return serverHeaders(this.sealer(), this.flows, row);
  }

  private setStatus(id: string, status: ServerRow["status"], error: string | null): void {
    const row = this.store.get(id);
    if (row) this.store.put({ ...row, status, error, updated_at: Date.now() });
  }

  private viewOf(row: ServerRow): McpServerView {
    return storedServerView(this.store, row);
  }

  private refusal(url: string): string | null {
    return urlRefusal(url, this.allowPrivate());
  }

  private allowPrivate(): boolean {
    return readEnv(this.env).ALLOW_PRIVATE_NETWORK;
  }

  private sealer(): Sealer {
    return registrySealer(this.env, this.ctx.id.toString());
  }
}
