/**
 * A registered MCP server's credentials: its headers and OAuth client secret sealed with the
 * secret box (bound to the registry object), and the headers a connection sends (the stored ones
 * opened, plus a fresh OAuth access token).
 */
import type { CreateMcpServer } from "../../schemas/mcp";
import { assertFetchable } from "../engine/net/ssrf";
import { openSecret, sealSecret, secretKeyring } from "../engine/secret-box";
import type { OAuthFlows } from "./oauth-flows";
import type { Sealer } from "./oauth-provider";
import type { ServerRow } from "./server-store";

/** Seals and opens the registry's secrets, bound to the registry object's id. */
export function registrySealer(env: Env, objectId: string): Sealer {
  const aad = (label: string) => `${objectId}/mcp/${label}`;
  const key = () => secretKeyring(env);
  return {
    seal: async (label, value) => sealSecret(await key(), aad(label), value),
    open: async (label, sealed) => openSecret(await key(), aad(label), sealed),
  };
}

/** A server's OAuth settings as stored: the client secret sealed. */
export async function sealOAuth(
  sealer: Sealer,
  id: string,
  oauth: CreateMcpServer["oauth"] | null,
): Promise<ServerRow["oauth"]> {
  if (!oauth) return null;
  const { client_secret, ...rest } = oauth;
  return {
    ...rest,
    ...(client_secret ? { client_secret: await sealer.seal(`${id}/client_secret`, client_secret) } : {}),
  };
}

/** A server's headers as stored: sealed JSON. */
export function sealHeaders(sealer: Sealer, id: string, headers: Record<string, string>): Promise<string> {
  return sealer.seal(`${id}/headers`, JSON.stringify(headers));
}

/** The headers a connection to the server sends: the stored ones opened, with a fresh access token. */
export async function serverHeaders(
  sealer: Sealer,
  flows: OAuthFlows,
  row: ServerRow,
): Promise<Record<string, string>> {
  const headers = row.headers
    ? (JSON.parse(await sealer.open(`${row.id}/headers`, row.headers)) as Record<string, string>)
    : {};
  const token = await flows.accessToken(row, { force: false });
  if (token) headers.Authorization = `Bearer ${token}`;
  return headers;
}

/** Why the registry may not connect to a URL (private networks, bad schemes), or null when it may. */
export function urlRefusal(url: string, allowPrivateNetwork: boolean): string | null {
  try {
    assertFetchable(new URL(url), { allowPrivateNetwork });
    return null;
  } catch (err) {
    return (err as Error).message;
  }
}
