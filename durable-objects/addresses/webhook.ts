/** How a workspace's webhook endpoints object (`WEBHOOKS`) is named and reached: one per workspace. */
import { checkedId, WORKSPACE_ID } from "./ids";

/** The stub of a workspace's webhook object. */
export function webhookStub(env: Env, workspaceId: string): ReturnType<Env["WEBHOOKS"]["get"]> {
  const ns = env.WEBHOOKS;
  return ns.get(ns.idFromName(checkedId("workspace", WORKSPACE_ID, workspaceId)));
}
