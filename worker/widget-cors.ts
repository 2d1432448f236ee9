/**
 * CORS for the widget. A preflight carries no key, so it is answered from the registry object
 * of its own origin (`OriginRegistry`, one per origin), behind a short per-isolate cache; no
 * object shared by every tenant is on the path. Responses to a verified publishable-key request
 * carry that request's origin only.
 */
import type { MiddlewareHandler } from "hono";
import { originRegistry } from "../durable-objects/origin-registry/origin-registry-object";
import type { AppEnv } from "./app-env";
import { ApiError } from "./errors";
import { IsolateCache } from "./isolate-cache";

/** How long browsers may cache a preflight answer. */
const PREFLIGHT_MAX_AGE = "600";
/** How long an isolate trusts an origin's "allowed" answer. */
const ALLOWED_TTL_MS = 60_000;
/** How long an isolate trusts a "not allowed" answer: short, so a new key's origin passes soon. */
const REFUSED_TTL_MS = 10_000;
/** Origins remembered per isolate. */
const MAX_ORIGINS = 5_000;
const ALLOWED_HEADERS = "authorization, content-type, x-visitor-token, last-event-id";
const EXPOSED_HEADERS = "retry-after, x-run-id";

const origins = new IsolateCache<boolean>(MAX_ORIGINS);

/** Whether any publishable key allows `origin`, from the isolate cache or the origin's object. */
async function originAllowed(env: Env, origin: string): Promise<boolean> {
  const cached = origins.get(origin);
  if (cached !== undefined) return cached;
  const allowed = await originRegistry(env, origin).allows(origin);
  origins.set(origin, allowed, allowed ? ALLOWED_TTL_MS : REFUSED_TTL_MS);
  return allowed;
}

/**
 * Moves key `<workspace>/<key id>` from the origins it allowed to the ones it allows now. Adds go
 * to every current origin (idempotent), so a sync that failed half-way is repaired by the next.
 */
export async function syncKeyOrigins(
  env: Env,
  workspaceId: string,
  keyId: string,
  before: string[],
  after: string[],
): Promise<void> {
  const ref = `${workspaceId}/${keyId}`;
  const removed = before.filter((o) => !after.includes(o));
  await Promise.all([
    ...after.map((o) => originRegistry(env, o).add(o, ref)),
    ...removed.map((o) => originRegistry(env, o).remove(o, ref)),
  ]);
  for (const o of [...after, ...removed]) origins.delete(o);
}

/** CORS for the widget: preflights pass only for registered origins; responses to a verified
 * publishable-key request carry that origin only. */
export function widgetCors(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const origin = c.req.header("origin");
    if (c.req.method === "OPTIONS" && origin && c.req.header("access-control-request-method")) {
      if (!(await originAllowed(c.env, origin)))
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
