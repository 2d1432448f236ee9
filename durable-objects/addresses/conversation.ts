/** How a conversation's object (`CONVERSATIONS`) is named and reached: `<workspace>/<conversation>`. */
import { CONVERSATION_ID, scopedName } from "./ids";

/** The stub of a conversation, named inside its workspace so no other workspace can reach it. */
export function conversationStub(
  env: Env,
  workspaceId: string,
  conversationId: string,
): ReturnType<Env["CONVERSATIONS"]["get"]> {
  const ns = env.CONVERSATIONS;
  return ns.get(ns.idFromName(scopedName(workspaceId, "conversation", CONVERSATION_ID, conversationId)));
}
