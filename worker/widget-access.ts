/**
 * Publishable keys (`pk_<workspace>_<secret>`) for the embeddable widget: accepted only from
 * their allowed origins, with CORS for those origins only, per-key and per-visitor rate limits,
 * and a narrow set of routes on the visitor's own conversation.
 */
import type { Context, MiddlewareHandler } from "hono";
import type { WidgetLimits } from "../durable-objects/workspace/widget-auth";
import { hashKey } from "../durable-objects/workspace/workspace-object";
import type { AppEnv, Principal } from "./app-env";
import { ApiError } from "./errors";
import { workspaceStub } from "./stubs";

/** Default requests per window for one publishable key (all its visitors together). */
const DEFAULT_PER_KEY = 600;
/** Default requests per window for one visitor. */
const DEFAULT_PER_VISITOR = 60;
const DEFAULT_WINDOW_SECONDS = 60;
/** The WorkspaceObject instance holding the origin registry; `_` cannot appear in workspace ids. */
const CORS_REGISTRY = "__cors__";
/** How long browsers may cache a preflight answer. */
const PREFLIGHT_MAX_AGE = "600";
const ALLOWED_HEADERS = "authorization, content-type, x-visitor-token, last-event-id";
const EXPOSED_HEADERS = "retry-after, x-run-id";
const PUBLISHABLE = /^pk_([A-Za-z0-9-]{1,64})_[A-Za-z0-9_-]{16,}$/;

/** The routes a publishable key may call; `:conv` must be the visitor's conversation. */
const WIDGET_ROUTES: { method: string; pattern: RegExp }[] = [
  { method: "POST", pattern: /^\/v1\/widget\/session$/ },
  { method: "GET", pattern: /^\/v1\/widget\/config$/ },
  { method: "POST", pattern: /^\/v1\/conversations\/([^/]+)\/(messages|answer|cancel)$/ },
  { method: "GET", pattern: /^\/v1\/conversations\/([^/]+)\/events$/ },
  // The live view of the visitor's browser tabs, and its input (take-overs).
  { method: "GET", pattern: /^\/v1\/conversations\/([^/]+)\/tabs\/\d+\/live$/ },
  { method: "POST", pattern: /^\/v1\/conversations\/([^/]+)\/tabs\/\d+\/input$/ },
  // Downloads of files the agent wrote in this conversation.
  { method: "GET", pattern: /^\/v1\/conversations\/([^/]+)\/files\/.+$/ },
];

function positive(raw: unknown, fallback: number): number {
  const n = typeof raw === "string" ? Number(raw) : Number.NaN;
  return Number.isFinite(n) && n > 0 ? n : fallback;
}

/** The widget rate limits from vars WIDGET_RATE_LIMIT_PER_KEY / _PER_VISITOR / _WINDOW_S. */
export function widgetLimits(env: Env): WidgetLimits {
  const vars = env as unknown as Record<string, unknown>;
  return {
    perKey: positive(vars.WIDGET_RATE_LIMIT_PER_KEY, DEFAULT_PER_KEY),
    perVisitor: positive(vars.WIDGET_RATE_LIMIT_PER_VISITOR, DEFAULT_PER_VISITOR),
    windowMs: positive(vars.WIDGET_RATE_LIMIT_WINDOW_S, DEFAULT_WINDOW_SECONDS) * 1000,
  };
}

/** Whether a token looks like a publishable key. */
export const isPublishable = (token: string): boolean => token.startsWith("pk_");

/** Resolves a publishable key plus visitor token to a principal; throws the 401/403/429. */
export async function authenticateWidget(c: Context<AppEnv>, token: string): Promise<Principal> {
  const match = PUBLISHABLE.exec(token);
  if (!match) throw new ApiError(401, "unauthorized", "The publishable key is not valid.");
  const workspaceId = match[1];
  const visitor = c.req.header("x-visitor-token");
  const origin = c.req.header("origin") ?? null;
  const auth = await workspaceStub(c.env, workspaceId).authorizeWidget({
    keyHash: await hashKey(token),
    origin,
    visitorHash: visitor ? await hashKey(visitor) : null,
    limits: widgetLimits(c.env),
  });
  if (origin && (auth.ok || auth.originOk)) c.set("corsOrigin", origin);
  if (!auth.ok) {
    const headers = auth.retryAfterMs
      ? { "retry-after": String(Math.max(1, Math.ceil(auth.retryAfterMs / 1000))) }
      : undefined;
    throw new ApiError(auth.status, auth.code, auth.message, headers);
  }
  return {
    workspaceId,
    admin: false,
    keyId: auth.keyId,
    publishable: { conversationId: auth.conversationId },
  };
}

/** Limits a publishable principal to the widget routes on its own conversation (403 otherwise). */
export function restrictPublishable(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const pub = c.get("principal")?.publishable;
    if (!pub) return next();
    const path = new URL(c.req.url).pathname;
    const route = WIDGET_ROUTES.find((r) => r.method === c.req.method && r.pattern.test(path));
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

/** The origin registry that answers CORS preflights. */
function registry(env: Env) {
  return workspaceStub(env, CORS_REGISTRY);
}

/** Records (or clears, with `[]`) the origins a workspace's key allows. */
export async function syncKeyOrigins(
  env: Env,
  workspaceId: string,
  keyId: string,
  origins: string[],
): Promise<void> {
  await registry(env).registerOrigins(`${workspaceId}/${keyId}`, origins);
}

/** CORS for the widget: preflights pass only for registered origins; responses to a verified
 * publishable-key request carry that origin only. */
export function widgetCors(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const origin = c.req.header("origin");
    if (c.req.method === "OPTIONS" && origin && c.req.header("access-control-request-method")) {
      if (!(await registry(c.env).originAllowed(origin)))
        throw new ApiError(403, "forbidden", "This origin is not allowed by any publishable key.");
      return c.body(null, 204, {
        "access-control-allow-origin": origin,
        "access-control-allow-methods": "GET, POST, OPTIONS",
        "access-control-allow-headers": ALLOWED_HEADERS,
        "access-control-max-age": PREFLIGHT_MAX_AGE,
        vary: "Origin",
      });
    }
    await next();
    const allowed = c.get("corsOrigin");
    if (!allowed) return;
    const res = new Response(c.res.body, c.res);
    res.headers.set("access-control-allow-origin", allowed);
    res.headers.set("access-control-expose-headers", EXPOSED_HEADERS);
    res.headers.append("vary", "Origin");
    c.res = res;
  };
}
