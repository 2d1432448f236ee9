/** Where HTTP tools may send requests: http(s) only, and public addresses unless allowed. */
import { ToolError } from "../tools/tool";

/** Throws a ToolError when an HTTP tool's URL may not be called. */
export function checkToolUrl(url: string, env: Record<string, unknown>): void {
  const parsed = new URL(url);
  if (parsed.protocol !== "https:" && parsed.protocol !== "http:") {
    throw new ToolError("url_refused", `HTTP tools call http(s) URLs only, not ${parsed.protocol}`);
  }
  if (env.ALLOW_PRIVATE_NETWORK === "true") return;
  const host = parsed.hostname.replace(/^\[|\]$/g, "").toLowerCase();
  if (host === "localhost" || host.endsWith(".localhost") || /^[\d.]+$/.test(host) || host.includes(":")) {
    throw new ToolError(
      "url_refused",
      `HTTP tools may not call ${host}: private and literal addresses are refused.`,
    );
  }
}
