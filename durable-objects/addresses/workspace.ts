/** How a workspace's object (`WORKSPACES`) is named and reached: one per workspace id. */
import { checkedId, WORKSPACE_ID } from "./ids";

/** The stub of a workspace's object. */
export function workspaceStub(env: Env, workspaceId: string): ReturnType<Env["WORKSPACES"]["get"]> {
  const ns = env.WORKSPACES;
  return ns.get(ns.idFromName(checkedId("workspace", WORKSPACE_ID, workspaceId)));
}
