/** How a workspace's MCP server registry (`MCP_REGISTRY`) is named and reached: one per workspace. */
import { checkedId, WORKSPACE_ID } from "./ids";

/** The stub of a workspace's MCP server registry. */
export function mcpRegistryStub(env: Env, workspaceId: string): ReturnType<Env["MCP_REGISTRY"]["get"]> {
  const ns = env.MCP_REGISTRY;
  return ns.get(ns.idFromName(checkedId("workspace", WORKSPACE_ID, workspaceId)));
}
