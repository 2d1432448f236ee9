/** Durable Object stubs, always scoped to the caller's workspace. */
import type { ConversationObject } from "../durable-objects/conversation/conversation-object";
import type { McpRegistry } from "../durable-objects/mcp-registry/mcp-registry-object";
import type { WorkspaceObject } from "../durable-objects/workspace/workspace-object";
import { InvalidObjectId } from "../durable-objects/addresses/ids";
import { conversationStub as conversationAddress } from "../durable-objects/addresses/conversation";
import { mcpRegistryStub as mcpRegistryAddress } from "../durable-objects/addresses/mcp-registry";
import { workspaceStub as workspaceAddress } from "../durable-objects/addresses/workspace";
import { ApiError } from "./errors";

/** Ids the API accepts for conversations (ours are `conv_…`; AG-UI clients bring their own). */
export { CONVERSATION_ID } from "../durable-objects/addresses/ids";

/** The stub of a workspace's object. */
export function workspaceStub(env: Env, workspaceId: string): DurableObjectStub<WorkspaceObject> {
  return workspaceAddress(env, workspaceId) as DurableObjectStub<WorkspaceObject>;
}

/** The stub of a conversation, named inside its workspace so no other workspace can reach it. */
export function conversationStub(
  env: Env,
  workspaceId: string,
  conversationId: string,
): DurableObjectStub<ConversationObject> {
  try {
    return conversationAddress(env, workspaceId, conversationId) as DurableObjectStub<ConversationObject>;
  } catch (err) {
    // The addresses module checks the id; the API answers a bad one as it answers an unknown one.
    if (err instanceof InvalidObjectId && err.kind === "conversation")
      throw new ApiError(404, "not_found", "No such conversation.");
    throw err;
  }
}

/** The stub of a conversation that must exist. */
export async function existingConversation(
  env: Env,
  workspaceId: string,
  conversationId: string,
): Promise<DurableObjectStub<ConversationObject>> {
  const stub = conversationStub(env, workspaceId, conversationId);
  if (!(await stub.describe()))
    throw new ApiError(404, "not_found", `No conversation ${conversationId} in this workspace.`);
  return stub;
}

/** Refuses (400) a `browser_profile` the workspace does not have; passes when none is named. */
export async function assertProfile(
  env: Env,
  workspaceId: string,
  name: string | null | undefined,
): Promise<void> {
  if (name && !(await workspaceStub(env, workspaceId).profileInfo(name)))
    throw new ApiError(400, "unknown_browser_profile", `No browser profile ${name} in this workspace.`);
}

/** The stub of a workspace's MCP server registry. */
export function mcpRegistryStub(env: Env, workspaceId: string): DurableObjectStub<McpRegistry> {
  return mcpRegistryAddress(env, workspaceId) as DurableObjectStub<McpRegistry>;
}
