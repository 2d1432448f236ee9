/**
 * A local OAuth 2.1 authorization server for an MCP server (the SDK's server-side auth helpers
 * on express): RFC 8414 metadata, RFC 9728 protected-resource metadata, RFC 7591 dynamic client
 * registration, PKCE (checked by the SDK's token handler), refresh tokens that rotate, and a
 * consent step that approves at once. Controls let a test expire every access token and read
 * how many codes and refreshes were exchanged.
 */
import { randomUUID } from "node:crypto";
import type { OAuthRegisteredClientsStore } from "@modelcontextprotocol/sdk/server/auth/clients.js";
import type {
  AuthorizationParams,
  OAuthServerProvider,
} from "@modelcontextprotocol/sdk/server/auth/provider.js";
import type { AuthInfo } from "@modelcontextprotocol/sdk/server/auth/types.js";
import type { OAuthClientInformationFull, OAuthTokens } from "@modelcontextprotocol/sdk/shared/auth.js";
import type { Response } from "express";

/** Counters a test reads. */
export interface OAuthStats {
  registrations: number;
  codes: number;
  refreshes: number;
  /** Refresh tokens presented that were already spent (rotation violated). */
  reused_refresh_tokens: number;
}

/** An in-memory authorization server that approves every sign-in. */
export class TestOAuthProvider implements OAuthServerProvider {
  readonly stats: OAuthStats = { registrations: 0, codes: 0, refreshes: 0, reused_refresh_tokens: 0 };
  /** Seconds an access token lives. */
  expiresIn = 3600;
  private readonly clients = new Map<string, OAuthClientInformationFull>();
  private readonly codes = new Map<string, { client: string; challenge: string; redirect: string }>();
  private readonly access = new Map<string, { client: string; expiresAt: number }>();
  private readonly refresh = new Map<string, string>();
  private readonly spent = new Set<string>();

  get clientsStore(): OAuthRegisteredClientsStore {
    return {
      getClient: (id) => this.clients.get(id),
      registerClient: (client) => {
        this.stats.registrations++;
        const full = {
          ...client,
          client_id: `client-${randomUUID()}`,
          client_id_issued_at: Math.floor(Date.now() / 1000),
        };
        this.clients.set(full.client_id, full as OAuthClientInformationFull);
        return full as OAuthClientInformationFull;
      },
    };
  }

  async authorize(
    client: OAuthClientInformationFull,
    params: AuthorizationParams,
    res: Response,
  ): Promise<void> {
    const code = randomUUID();
    this.codes.set(code, {
      client: client.client_id,
      challenge: params.codeChallenge,
      redirect: params.redirectUri,
    });
    const target = new URL(params.redirectUri);
    target.searchParams.set("code", code);
    if (params.state) target.searchParams.set("state", params.state);
    res.redirect(302, target.href);
  }

  async challengeForAuthorizationCode(_client: OAuthClientInformationFull, code: string): Promise<string> {
    const entry = this.codes.get(code);
    if (!entry) throw new Error("unknown code");
    return entry.challenge;
  }

  async exchangeAuthorizationCode(client: OAuthClientInformationFull, code: string): Promise<OAuthTokens> {
    const entry = this.codes.get(code);
    if (!entry || entry.client !== client.client_id) throw new Error("invalid code");
    this.codes.delete(code);
    this.stats.codes++;
    return this.issue(client.client_id);
  }

  async exchangeRefreshToken(client: OAuthClientInformationFull, token: string): Promise<OAuthTokens> {
    if (this.spent.has(token)) {
      this.stats.reused_refresh_tokens++;
      throw new Error("refresh token already used");
    }
    if (this.refresh.get(token) !== client.client_id) throw new Error("invalid refresh token");
    this.refresh.delete(token);
    this.spent.add(token);
    this.stats.refreshes++;
    return this.issue(client.client_id);
  }

  async verifyAccessToken(token: string): Promise<AuthInfo> {
    const entry = this.access.get(token);
    if (!entry || entry.expiresAt < Date.now()) throw new Error("invalid token");
    return { token, clientId: entry.client, scopes: [], expiresAt: Math.floor(entry.expiresAt / 1000) };
  }

  /** Whether an access token is valid now. */
  valid(token: string): boolean {
    const entry = this.access.get(token);
    return entry !== undefined && entry.expiresAt >= Date.now();
  }

  /** Every access token stops working (refresh tokens still do). */
  expireAll(): void {
    this.access.clear();
  }

  private issue(client: string): OAuthTokens {
    const access_token = `at-${randomUUID()}`;
    const refresh_token = `rt-${randomUUID()}`;
    this.access.set(access_token, { client, expiresAt: Date.now() + this.expiresIn * 1000 });
    this.refresh.set(refresh_token, client);
    return { access_token, token_type: "bearer", expires_in: this.expiresIn, refresh_token };
  }
}
