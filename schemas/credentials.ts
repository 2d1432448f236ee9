/**
 * A credential goes only where it was given: when an update moves a URL to another origin
 * (scheme, host or port) without giving the credential again, the stored one is dropped and the
 * response says so. Shared by MCP servers, HTTP tools, job webhooks and search base URLs.
 */
import { z } from "@hono/zod-openapi";

/** The response field that says a stored credential was dropped by this change. */
export const CredentialsCleared = z
  .boolean()
  .describe(
    "true when this change moved a URL to another origin without giving its credential again, so the stored credential was dropped (give it again for the new origin).",
  );

/** Whether two URLs have the same origin; an unparsable one never matches. */
export function sameOrigin(a: string, b: string): boolean {
  try {
    return new URL(a).origin === new URL(b).origin;
  } catch {
    return false;
  }
}
