/**
 * Refuses a request whose URL path is not valid percent-encoding (`%E0%A4%A`, `%ZZ`, a lone `%`)
 * before any route sees it: route parameters are decoded later, and an undecodable one must be
 * the caller's 400, never a URIError's 500.
 */
import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "./app-env";
import { ApiError } from "./errors";

/** The problem with a raw URL path's percent-encoding, or null when every escape decodes. */
export function pathEncodingProblem(rawPath: string): string | null {
  try {
    decodeURIComponent(rawPath);
    return null;
  } catch {
    const bad = /%(?![0-9A-Fa-f]{2})|(?:%[0-9A-Fa-f]{2})+/g;
    // Name the first escape that does not decode, so the caller sees what to fix.
    for (const m of rawPath.matchAll(bad)) {
      try {
        decodeURIComponent(m[0]);
      } catch {
        return `The URL path has a malformed percent-encoding at "${m[0].slice(0, 30)}".`;
      }
    }
    return "The URL path has a malformed percent-encoding.";
  }
}

/** `app.use("*", …)`: 400 `invalid_path` for a path whose percent-encoding does not decode. */
export function requireDecodablePath(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const problem = pathEncodingProblem(new URL(c.req.url).pathname);
    if (problem) throw new ApiError(400, "invalid_path", problem);
    await next();
  };
}
