/** How a session of Cirrus's own MCP endpoint (`MCP_SESSIONS`) is named and reached: `<workspace>/<session>`. */
import { MCP_SESSION_ID, scopedName } from "./ids";

/** The stub of one MCP session, named inside its workspace. */
export function mcpSessionStub(
  env: Env,
  workspaceId: string,
  sessionId: string,
): ReturnType<Env["MCP_SESSIONS"]["get"]> {
  const ns = env.MCP_SESSIONS;
  return ns.get(ns.idFromName(scopedName(workspaceId, "MCP session", MCP_SESSION_ID, sessionId)));
}
