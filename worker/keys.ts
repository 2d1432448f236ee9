/** Creating, editing and revoking a workspace's keys, keeping the CORS origin registry in step. */
import type { z } from "@hono/zod-openapi";
import type { CreateKey, KeyInfo, UpdateKey } from "../schemas/api";
import { ApiError, unwrap } from "./errors";
import { workspaceStub } from "./stubs";
import { forgetKey } from "./widget-access";
import { syncKeyOrigins } from "./widget-cors";

type Key = z.infer<typeof KeyInfo>;

/** Issues a key (409 `too_many_keys` at the cap); publishable keys register their origins for CORS preflights. */
export async function createWorkspaceKey(
  env: Env,
  workspaceId: string,
  body: CreateKey,
): Promise<Key & { key: string }> {
  const key = unwrap(
    await workspaceStub(env, workspaceId).createKey(body.name, body.type, body.allowed_origins),
  );
  if (key.type === "publishable") await syncKeyOrigins(env, workspaceId, key.id, [], key.allowed_origins);
  return key;
}

/** Renames a key or replaces a publishable key's origins. */
export async function updateWorkspaceKey(
  env: Env,
  workspaceId: string,
  keyId: string,
  patch: z.infer<typeof UpdateKey>,
): Promise<Key> {
  const stub = workspaceStub(env, workspaceId);
  const existing = (await stub.listKeys()).find((k) => k.id === keyId);
  if (!existing) throw new ApiError(404, "not_found", `No key ${keyId} in this workspace.`);
  if (patch.allowed_origins && existing.type !== "publishable")
    throw new ApiError(400, "invalid_request", "Only publishable keys have allowed origins.");
  if (patch.allowed_origins?.length === 0)
    throw new ApiError(400, "invalid_request", "A publishable key needs at least one allowed origin.");
  const key = await stub.updateKey(keyId, patch);
  if (!key) throw new ApiError(404, "not_found", `No key ${keyId} in this workspace.`);
  forgetKey(workspaceId, keyId);
  if (key.type === "publishable")
    await syncKeyOrigins(env, workspaceId, key.id, existing.allowed_origins, key.allowed_origins);
  return key;
}

/** Revokes a key and forgets its origins. */
export async function revokeWorkspaceKey(env: Env, workspaceId: string, keyId: string): Promise<void> {
  const revoked = await workspaceStub(env, workspaceId).deleteKey(keyId);
  if (!revoked) throw new ApiError(404, "not_found", `No key ${keyId} in this workspace.`);
  forgetKey(workspaceId, keyId);
  if (revoked.type === "publishable")
    await syncKeyOrigins(env, workspaceId, keyId, revoked.allowed_origins, []);
}
