/**
 * What an MCP connection's (./connection.ts) transport errors mean: their HTTP status, a short
 * description, and the {@link McpUnavailable} reason a server's tools are left out.
 */
import { StreamableHTTPError } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { McpUnavailable } from "./mcp-types";

/** The HTTP status of a transport error, when it has one. */
export function httpStatusOf(err: unknown): number | null {
  if (err instanceof StreamableHTTPError && typeof err.code === "number" && err.code > 0) return err.code;
  const m = /\b(?:HTTP|status|code)[\s:]*([1-5]\d\d)\b/i.exec(String((err as Error)?.message ?? ""));
  return m ? Number(m[1]) : null;
}

/** A transport error in a few words: `HTTP 503: down`, or the error's message. */
export function describeError(err: unknown): string {
  const status = httpStatusOf(err);
  const message = (err instanceof Error ? err.message : String(err))
    .replace(/^Streamable HTTP error: /, "")
    .replace(/^Error POSTing to endpoint: /, "")
    .slice(0, 300);
  return status !== null && !message.includes(String(status)) ? `HTTP ${status}: ${message}` : message;
}

/** A connection failure as the reason a server's tools are left out. */
export function unavailable(server: { name: string }, err: unknown, code?: string): McpUnavailable {
  if (err instanceof McpUnavailable) return err;
  const status = httpStatusOf(err);
  const kind = code ?? (status === 401 || status === 403 ? "needs_auth" : "unreachable");
  const detail = describeError(err);
  const message =
    kind === "needs_auth"
      ? `${server.name} refused the connection (HTTP ${status ?? 401}); it needs valid credentials or an OAuth connection.`
      : `${server.name} could not be reached (${detail})`;
  return new McpUnavailable(kind, message);
}
