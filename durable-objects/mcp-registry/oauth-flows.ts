/**
 * OAuth 2.1 for MCP servers, run by the SDK's `auth()` against a storage-backed provider:
 * discovery (RFC 9728 protected-resource metadata, RFC 8414 authorization-server metadata),
 * dynamic client registration (RFC 7591) unless a client id is configured, PKCE, the code
 * exchange on the callback, and refresh shortly before the access token expires (or after a 401).
 * Refreshes of one server are serialised, so a rotating refresh token is never spent twice.
 */
import { auth } from "@modelcontextprotocol/sdk/client/auth.js";
import { assertFetchable } from "../engine/net/ssrf";
import { fail, ok, type RpcResult } from "../engine/rpc-result";
import { type Sealer, StoredOAuthProvider } from "./oauth-provider";
import type { ServerRow, ServerStore } from "./server-store";

/** Access tokens are refreshed when they expire within this long (or half their lifetime, if shorter). */
export const REFRESH_MARGIN_MS = 60_000;
/** Where authorization servers send the browser back. */
export const CALLBACK_PATH = "/v1/mcp/oauth/callback";

/** What the flows need from the registry. */
export interface FlowDeps {
  store: ServerStore;
  sealer: Sealer;
  allowPrivateNetwork: boolean;
  publicBaseUrl: string | null;
}

function randomState(): string {
  const raw = crypto.getRandomValues(new Uint8Array(24));
  return btoa(String.fromCharCode(...raw))
    .replace(/\+/g, "-")
    .replace(/\//g, "_")
    .replace(/=+$/, "");
}

/** The OAuth flows of one workspace's servers. */
export class OAuthFlows {
  private readonly refreshing = new Map<string, Promise<string | null>>();

  constructor(private readonly d: FlowDeps) {}

  /** Starts a sign-in (forgetting old tokens); the authorization URL. */
  async start(row: ServerRow, workspaceId: string, origin: string): Promise<RpcResult<string>> {
    const redirectUri = `${(this.d.publicBaseUrl ?? origin).replace(/\/+$/, "")}${CALLBACK_PATH}`;
    const before = this.d.store.oauth(row.id);
    this.d.store.patchOAuth(row.id, {
      tokens: null,
      expires_at: null,
      verifier: null,
      redirect_uri: redirectUri,
      // A client registered for another callback URL must register again.
      ...(before.redirect_uri && before.redirect_uri !== redirectUri ? { client: null } : {}),
    });
    const provider = await this.provider(row, () => `${workspaceId}.${randomState()}`);
    try {
      const result = await auth(provider, {
        serverUrl: row.url,
        scope: row.oauth?.scope,
        fetchFn: this.fetcher(),
      });
      if (result === "REDIRECT" && provider.authUrl) return ok(provider.authUrl);
      return fail(
        409,
        "already_authorized",
        `${row.name} accepted the stored credentials; no sign-in is needed.`,
      );
    } catch (err) {
      return fail(
        422,
        "oauth_failed",
        `OAuth discovery or registration with ${row.name} failed: ${(err as Error).message}`,
      );
    }
  }

  /** Exchanges the callback's code for tokens (PKCE verifier from storage). */
  async complete(row: ServerRow, code: string): Promise<RpcResult<true>> {
    const provider = await this.provider(row, randomState);
    try {
      const result = await auth(provider, {
        serverUrl: row.url,
        authorizationCode: code,
        fetchFn: this.fetcher(),
      });
      if (result !== "AUTHORIZED") return fail(400, "oauth_failed", `${row.name} did not issue tokens.`);
      return ok(true as const);
    } catch (err) {
      return fail(
        400,
        "oauth_failed",
        `The sign-in with ${row.name} could not be completed: ${(err as Error).message}`,
      );
    } finally {
      this.d.store.patchOAuth(row.id, { state: null, verifier: null, auth_url: null });
    }
  }

  /**
   * The access token to send, refreshed first when it is about to expire (within a minute, or
   * half its lifetime for short-lived tokens) or when `force`d after a 401.
   */
  async accessToken(row: ServerRow, opts: { force: boolean }): Promise<string | null> {
    const o = this.d.store.oauth(row.id);
    if (!o.tokens) return null;
    const tokens = await (await this.provider(row, randomState)).tokens();
    const lifetime = (tokens?.expires_in ?? 0) * 1000;
    const margin = Math.min(REFRESH_MARGIN_MS, lifetime / 2);
    const fresh = o.expires_at === null || o.expires_at - Date.now() > margin;
    if (fresh && !opts.force) return tokens?.access_token ?? null;
    let pending = this.refreshing.get(row.id);
    if (!pending) {
      pending = this.refresh(row, opts.force).finally(() => this.refreshing.delete(row.id));
      this.refreshing.set(row.id, pending);
    }
    return pending;
  }

  private async refresh(row: ServerRow, force: boolean): Promise<string | null> {
    const provider = await this.provider(row, randomState);
    const before = await provider.tokens();
    if (!before?.refresh_token) return force ? null : (before?.access_token ?? null);
    try {
      const result = await auth(provider, {
        serverUrl: row.url,
        scope: row.oauth?.scope,
        fetchFn: this.fetcher(),
      });
      if (result !== "AUTHORIZED") return null;
      return (await provider.tokens())?.access_token ?? null;
    } catch {
      // The authorization server is unreachable: an unexpired token may still work.
      return force ? null : before.access_token;
    }
  }

  private async provider(row: ServerRow, newState: () => string): Promise<StoredOAuthProvider> {
    const o = this.d.store.oauth(row.id);
    const secret = row.oauth?.client_secret
      ? await this.d.sealer.open(`${row.id}/client_secret`, row.oauth.client_secret)
      : undefined;
    return new StoredOAuthProvider({
      store: this.d.store,
      serverId: row.id,
      sealer: this.d.sealer,
      redirectUri: o.redirect_uri ?? `${this.d.publicBaseUrl ?? "http://localhost"}${CALLBACK_PATH}`,
      config: row.oauth ? { ...row.oauth, client_secret: secret } : null,
      newState,
    });
  }

  /** fetch with the SSRF guard on every URL the flow visits. */
  private fetcher(): typeof fetch {
    return ((input: RequestInfo | URL, init?: RequestInit) => {
      const url = new URL(input instanceof Request ? input.url : String(input));
      assertFetchable(url, { allowPrivateNetwork: this.d.allowPrivateNetwork });
      return fetch(input, init);
    }) as typeof fetch;
  }
}
