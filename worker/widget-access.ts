/**
 * Publishable keys (`pk_<workspace>_<secret>`) for the embeddable widget: accepted only from
 * their allowed origins, per-key and per-visitor rate limits (Rate Limiting bindings, see
 * widget-limits.ts), and a narrow set of routes on the visitor's own conversation. The key names
 * its workspace, so a lookup goes to that workspace's object only, and a per-isolate cache
 * answers repeat requests without it: a revoked key or a changed origin list takes effect at once
 * in the isolate that made the change and within KEY_TTL_MS everywhere else.
 */
import type { Context, MiddlewareHandler } from "hono";
import { hashKey } from "../durable-objects/engine/tokens";
import type { VisitorRecord, WidgetKey } from "../durable-objects/workspace/workspace-keys";
import type { AppEnv, Principal } from "./app-env";
import { ApiError } from "./errors";
import { IsolateCache } from "./isolate-cache";
import { workspaceStub } from "./stubs";
import { type Limited, limitKey, limitVisitor } from "./widget-limits";

/** How long an isolate trusts a publishable key's record (or its absence). */
export const KEY_TTL_MS = 30_000;
/** How long an isolate trusts a visitor's record; its key is still checked on every request. */
const VISITOR_TTL_MS = 300_000;
/** Keys and visitors remembered per isolate. */
const MAX_KEYS = 5_000;
const MAX_VISITORS = 50_000;
const PUBLISHABLE = /^pk_([A-Za-z0-9-]{1,64})_[A-Za-z0-9_-]{16,}$/;

/** Publishable keys by hash (null: no such publishable key). */
const keys = new IsolateCache<(WidgetKey & { workspaceId: string }) | null>(MAX_KEYS);
/** Visitors by `<workspace>:<token hash>`. */
const visitors = new IsolateCache<VisitorRecord>(MAX_VISITORS);

/** The routes a publishable key may call; `:conv` must be the visitor's conversation. */
const WIDGET_ROUTES: { method: string; pattern: RegExp }[] = [
  { method: "POST", pattern: /^\/v1\/widget\/session$/ },
  { method: "GET", pattern: /^\/v1\/widget\/config$/ },
  { method: "POST", pattern: /^\/v1\/conversations\/([^/]+)\/(messages|answer|cancel)$/ },
  { method: "GET", pattern: /^\/v1\/conversations\/([^/]+)\/events$/ },
  // The live view and input of the tab handed to the visitor (routes/tabs.ts checks the take-over).
  { method: "GET", pattern: /^\/v1\/conversations\/([^/]+)\/tabs\/\d+\/live$/ },
  { method: "POST", pattern: /^\/v1\/conversations\/([^/]+)\/tabs\/\d+\/input$/ },
  { method: "POST", pattern: /^\/v1\/conversations\/([^/]+)\/takeover\/[^/]+\/done$/ },
  // Downloads of files the agent wrote in this conversation.
  { method: "GET", pattern: /^\/v1\/conversations\/([^/]+)\/files\/.+$/ },
];

/** Deciding an approval: an owner's key only, never a visitor (the model may be steered by one). */
const APPROVAL_ROUTE = /^\/v1\/conversations\/[^/]+\/approvals\/[^/]+$/;

/** The refusal of a visitor's decision on an approval. */
export function ownerDecides(): ApiError {
  return new ApiError(
    403,
    "forbidden",
    "Approvals in a widget visitor's conversation are decided by the workspace's owner (dashboard or API key), not by the visitor.",
  );
}

/** Whether a token looks like a publishable key. */
export const isPublishable = (token: string): boolean => token.startsWith("pk_");

/** Remembers a visitor just created in this isolate, so its first request needs no lookup. */
export function rememberVisitor(workspaceId: string, tokenHash: string, visitor: VisitorRecord): void {
  visitors.set(`${workspaceId}:${tokenHash}`, visitor, VISITOR_TTL_MS);
}

/** Forgets a key changed or revoked in this isolate. */
export function forgetKey(workspaceId: string, keyId: string): void {
  keys.deleteWhere((k) => k?.workspaceId === workspaceId && k.id === keyId);
}

/** The publishable key and (when asked) the visitor, from the cache or one call to the workspace. */
async function lookup(
  env: Env,
  workspaceId: string,
  keyHash: string,
  visitorHash: string | null,
): Promise<{ key: WidgetKey | null; visitor: VisitorRecord | null }> {
  let key = keys.get(keyHash);
  const visitorKey = `${workspaceId}:${visitorHash}`;
  let visitor: VisitorRecord | null | undefined = visitorHash ? visitors.get(visitorKey) : null;
  if (key === undefined || visitor === undefined) {
    const found = await workspaceStub(env, workspaceId).widgetLookup(
      keyHash,
      visitor === undefined ? visitorHash : null,
    );
    if (key === undefined) {
      key = found.key && { ...found.key, workspaceId };
      keys.set(keyHash, key, KEY_TTL_MS);
    }
    if (visitor === undefined) {
      visitor = found.visitor;
      if (visitor) visitors.set(visitorKey, visitor, VISITOR_TTL_MS);
    }
  }
  return { key, visitor };
}

function tooMany(limited: Limited): ApiError {
  return new ApiError(
    429,
    "rate_limited",
    `Too many requests for ${limited.who}; retry in ${limited.retryAfterS} s.`,
    { "retry-after": String(limited.retryAfterS) },
  );
}

/** Resolves a publishable key plus visitor token to a principal; throws the 401/403/429. */
export async function authenticateWidget(c: Context<AppEnv>, token: string): Promise<Principal> {
  const match = PUBLISHABLE.exec(token);
  if (!match) throw new ApiError(401, "unauthorized", "The publishable key is not valid.");
  const workspaceId = match[1];
  const visitorToken = c.req.header("x-visitor-token");
  const origin = c.req.header("origin") ?? null;
  const visitorHash = visitorToken ? await hashKey(visitorToken) : null;
  const { key, visitor } = await lookup(c.env, workspaceId, await hashKey(token), visitorHash);
  if (!key) throw new ApiError(401, "unauthorized", "The publishable key is not valid.");
  if (!origin || !key.allowed_origins.includes(origin))
    throw new ApiError(403, "forbidden", "This publishable key is not allowed on this origin.");
  // The key is valid and allows the origin: from here on the browser may read the answer.
  c.set("corsOrigin", origin);
  const keyLimited = await limitKey(c.env, workspaceId, key.id);
  if (keyLimited) throw tooMany(keyLimited);
  if (visitorHash) {
    if (!visitor || visitor.key_id !== key.id)
      throw new ApiError(401, "unauthorized", "The visitor token is not valid.");
    const visitorLimited = await limitVisitor(c.env, visitorHash);
    if (visitorLimited) throw tooMany(visitorLimited);
  }
  return {
    workspaceId,
    admin: false,
    keyId: key.id,
    publishable: { conversationId: visitor?.conversation_id ?? null },
  };
}

/** Limits a publishable principal to the widget routes on its own conversation (403 otherwise). */
export function restrictPublishable(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const pub = c.get("principal")?.publishable;
    if (!pub) return next();
    const path = new URL(c.req.url).pathname;
    const route = WIDGET_ROUTES.find((r) => r.method === c.req.method && r.pattern.test(path));
    if (!route && APPROVAL_ROUTE.test(path)) throw ownerDecides();
    if (!route)
      throw new ApiError(
        403,
        "forbidden",
        "A publishable key can only use the widget's conversation routes.",
      );
    const conv = route.pattern.exec(path)?.[1];
    if (conv !== undefined && decodeURIComponent(conv) !== pub.conversationId)
      throw new ApiError(403, "forbidden", "A visitor can only use its own conversation.");
    if (path === "/v1/widget/session" && pub.conversationId !== null && c.req.header("x-visitor-token"))
      throw new ApiError(403, "forbidden", "This visitor already has a conversation.");
    return next();
  };
}
