/**
 * The SDK's OAuthClientProvider, backed by the registry's SQLite row of one server: client
 * registration, tokens, the PKCE verifier, the sign-in's `state` and discovery results all live
 * in storage (secrets sealed), never only in memory — so a sign-in started before the object
 * hibernated completes after it, and tokens survive restarts and deploys.
 */
import type { OAuthClientProvider, OAuthDiscoveryState } from "@modelcontextprotocol/sdk/client/auth.js";
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from "@modelcontextprotocol/sdk/shared/auth.js";
import type { ServerStore } from "./server-store";

/** Seals and opens secrets bound to a label. */
export interface Sealer {
  seal(label: string, value: string): Promise<string>;
  open(label: string, sealed: string): Promise<string>;
}

/** What the provider of one server is built from. */
export interface ProviderParts {
  store: ServerStore;
  serverId: string;
  sealer: Sealer;
  redirectUri: string;
  /** Configured client (skips dynamic registration) and scope. */
  config: { client_id?: string; client_secret?: string; scope?: string } | null;
  /** A fresh `state` value for a new sign-in. */
  newState(): string;
}

/** A storage-backed OAuth client provider for one MCP server. */
export class StoredOAuthProvider implements OAuthClientProvider {
  /** The authorization URL of the sign-in just started (also stored). */
  authUrl: string | null = null;

  constructor(private readonly p: ProviderParts) {}

  get redirectUrl(): string {
    return this.p.redirectUri;
  }

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: "Cirrus",
      redirect_uris: [this.p.redirectUri],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: this.p.config?.client_secret ? "client_secret_post" : "none",
      ...(this.p.config?.scope ? { scope: this.p.config.scope } : {}),
    };
  }

  state(): string {
    const state = this.p.newState();
    this.p.store.patchOAuth(this.p.serverId, { state });
    return state;
  }

  async clientInformation(): Promise<OAuthClientInformationMixed | undefined> {
    const row = this.p.store.oauth(this.p.serverId);
    if (row.client) return JSON.parse(await this.open("client", row.client)) as OAuthClientInformationMixed;
    const c = this.p.config;
    return c?.client_id
      ? { client_id: c.client_id, ...(c.client_secret ? { client_secret: c.client_secret } : {}) }
      : undefined;
  }

  async saveClientInformation(info: OAuthClientInformationMixed): Promise<void> {
    this.p.store.patchOAuth(this.p.serverId, { client: await this.seal("client", JSON.stringify(info)) });
  }

  async tokens(): Promise<OAuthTokens | undefined> {
    const row = this.p.store.oauth(this.p.serverId);
    return row.tokens ? (JSON.parse(await this.open("tokens", row.tokens)) as OAuthTokens) : undefined;
  }

  async saveTokens(tokens: OAuthTokens): Promise<void> {
    // A refresh that returns no new refresh token keeps the old one (RFC 6749 §6).
    const previous = await this.tokens();
    const merged = { ...tokens, refresh_token: tokens.refresh_token ?? previous?.refresh_token };
    this.p.store.patchOAuth(this.p.serverId, {
      tokens: await this.seal("tokens", JSON.stringify(merged)),
      expires_at: typeof tokens.expires_in === "number" ? Date.now() + tokens.expires_in * 1000 : null,
    });
  }

  redirectToAuthorization(url: URL): void {
    this.authUrl = url.href;
    this.p.store.patchOAuth(this.p.serverId, { auth_url: url.href });
  }

  async saveCodeVerifier(verifier: string): Promise<void> {
    this.p.store.patchOAuth(this.p.serverId, { verifier: await this.seal("verifier", verifier) });
  }

  async codeVerifier(): Promise<string> {
    const row = this.p.store.oauth(this.p.serverId);
    if (!row.verifier) throw new Error("No sign-in is in progress for this server.");
    return this.open("verifier", row.verifier);
  }

  invalidateCredentials(scope: "all" | "client" | "tokens" | "verifier" | "discovery"): void {
    const clear = {
      all: { client: null, tokens: null, expires_at: null, verifier: null, discovery: null },
      client: { client: null },
      tokens: { tokens: null, expires_at: null },
      verifier: { verifier: null },
      discovery: { discovery: null },
    }[scope];
    this.p.store.patchOAuth(this.p.serverId, clear);
  }

  discoveryState(): OAuthDiscoveryState | undefined {
    const raw = this.p.store.oauth(this.p.serverId).discovery;
    return raw ? (JSON.parse(raw) as OAuthDiscoveryState) : undefined;
  }

  saveDiscoveryState(state: OAuthDiscoveryState): void {
    this.p.store.patchOAuth(this.p.serverId, { discovery: JSON.stringify(state) });
  }

  private seal(field: string, value: string): Promise<string> {
    return this.p.sealer.seal(`${this.p.serverId}/${field}`, value);
  }

  private open(field: string, sealed: string): Promise<string> {
    return this.p.sealer.open(`${this.p.serverId}/${field}`, sealed);
  }
}
