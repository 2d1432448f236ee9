/**
 * Bearer authentication. The ADMIN_TOKEN manages workspaces and keys and acts on the
 * workspace named `default`; a workspace key (`sk_<workspace>_<secret>`) sees only its own;
 * a publishable key (`pk_…`, see widget-access.ts) reaches only the widget routes.
 */
import { workspaceStub } from "../durable-objects/addresses/workspace";
import type { MiddlewareHandler } from "hono";
import { hashKey } from "../durable-objects/engine/tokens";
import type { AppEnv, Principal } from "./app-env";
import { ApiError } from "./errors";
import { authenticateWidget, isPublishable } from "./widget-access";

/** The workspace the admin token acts on. */
export const DEFAULT_WORKSPACE = "default";

/** Compares two strings in time independent of where they differ. */
export async function timingSafeEqual(a: string, b: string): Promise<boolean> {
  const [ha, hb] = await Promise.all([hashKey(a), hashKey(b)]);
  let diff = 0;
  for (let i = 0; i < ha.length; i++) diff |= ha.charCodeAt(i) ^ hb.charCodeAt(i);
  return diff === 0 && a.length === b.length;
}

/** Resolves a bearer token to a principal, or null. */
export async function authenticate(env: Env, token: string): Promise<Principal | null> {
  if (env.ADMIN_TOKEN && (await timingSafeEqual(token, env.ADMIN_TOKEN))) {
    const ws = workspaceStub(env, DEFAULT_WORKSPACE);
    await ws.init(DEFAULT_WORKSPACE, "default");
    return { workspaceId: DEFAULT_WORKSPACE, admin: true, keyId: null };
  }
  const match = /^sk_([A-Za-z0-9-]{1,64})_[A-Za-z0-9_-]{16,}$/.exec(token);
  if (!match) return null;
  const workspaceId = match[1];
  const ws = workspaceStub(env, workspaceId);
  const keyId = await ws.verifyKeyHash(await hashKey(token));
  return keyId ? { workspaceId, admin: false, keyId } : null;
}

/** Requires `Authorization: Bearer <key>` and sets `c.var.principal`. */
export function requireAuth(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const header = c.req.header("authorization") ?? "";
    const token = /^Bearer\s+(.+)$/i.exec(header)?.[1]?.trim();
    if (!token) throw new ApiError(401, "unauthorized", "Send an API key as `Authorization: Bearer <key>`.");
    const principal = isPublishable(token)
      ? await authenticateWidget(c, token)
      : await authenticate(c.env, token);
    if (!principal) throw new ApiError(401, "unauthorized", "The API key is not valid (or was revoked).");
    c.set("principal", principal);
    await next();
  };
}

/** Requires the admin token. */
export function requireAdmin(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (!c.get("principal")?.admin) throw new ApiError(403, "forbidden", "This route needs the admin token.");
    await next();
  };
}
