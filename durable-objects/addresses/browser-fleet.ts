/** How a workspace's browser fleet (`BROWSER_FLEET`) is named and reached: one per workspace id. */
import { checkedId, WORKSPACE_ID } from "./ids";

/** The stub of a workspace's browser fleet. */
export function browserFleetStub(env: Env, workspaceId: string): ReturnType<Env["BROWSER_FLEET"]["get"]> {
  const ns = env.BROWSER_FLEET;
  return ns.get(ns.idFromName(checkedId("workspace", WORKSPACE_ID, workspaceId)));
}
