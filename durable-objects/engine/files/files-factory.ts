/** Builds the file layer of one workspace from the Worker's bindings (R2 `FILES`, `WORKSPACES`). */
import { filesConfig } from "../config/files-config";
import { createResultSpill, type ResultSpill } from "./result-spill";
import { createFileLinks, type FileLinks, LinkSigner } from "./signed-links";
import { WorkspaceFiles } from "./workspace-files";

const vars = (env: Env) => env as unknown as Record<string, unknown>;

/** The files of a workspace, with its ledger in the workspace's Durable Object. */
export function workspaceFiles(env: Env, workspaceId: string): WorkspaceFiles {
  const ledger = env.WORKSPACES.get(env.WORKSPACES.idFromName(workspaceId));
  return new WorkspaceFiles(env.FILES, workspaceId, ledger, filesConfig(vars(env)).limits);
}

/** The signer of file links, or null when no secret is configured. */
export function linkSigner(env: Env): LinkSigner | null {
  const secret = filesConfig(vars(env)).signingSecret;
  return secret ? new LinkSigner(secret) : null;
}

/** Signed links to a workspace's files, or null when no secret is configured. */
export function workspaceFileLinks(env: Env, workspaceId: string): FileLinks | null {
  const signer = linkSigner(env);
  const cfg = filesConfig(vars(env));
  return signer ? createFileLinks(signer, workspaceId, cfg.publicBaseUrl, cfg.linkTtlSeconds) : null;
}

/** What a conversation needs for its file tools and its result spill. */
export function conversationFiles(
  env: Env,
  workspaceId: string,
): { files: WorkspaceFiles; links: FileLinks | null; spill: ResultSpill } {
  const files = workspaceFiles(env, workspaceId);
  return { files, links: workspaceFileLinks(env, workspaceId), spill: createResultSpill(files) };
}
