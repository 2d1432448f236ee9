/** Builds the file layer of one workspace from the Worker's bindings (R2 `FILES`, `WORKSPACES`). */
import { workspaceStub } from "../../addresses/workspace";
import { filesConfig } from "../config/files-config";
import { fileLinkRoots } from "../config/keys-config";
import { FilesError } from "./files-error";
import { createResultSpill, type ResultSpill } from "./result-spill";
import { type FileOps, type FileScope, scopedFiles } from "./scoped-files";
import { createFileLinks, type FileLinks, LinkSigner } from "./signed-links";
import { WorkspaceFiles } from "./workspace-files";

/** The files of a workspace, with its ledger in the workspace's Durable Object. */
export function workspaceFiles(env: Env, workspaceId: string): WorkspaceFiles {
  const ledger = workspaceStub(env, workspaceId);
  return new WorkspaceFiles(env.FILES, workspaceId, ledger, filesConfig(env).limits);
}

/** The signer of file links, or null when no secret is configured. */
export function linkSigner(env: Env): LinkSigner | null {
  const roots = fileLinkRoots(env);
  return roots ? new LinkSigner(roots) : null;
}

/**
 * Absolute signed links to a workspace's files, or null when no secret is configured. Links
 * start with PUBLIC_BASE_URL, else with `origin` (where the conversation was created); with
 * neither, asking for a link fails with `link_unavailable` rather than giving a relative one.
 */
export function workspaceFileLinks(env: Env, workspaceId: string, origin?: string | null): FileLinks | null {
  const signer = linkSigner(env);
  const cfg = filesConfig(env);
  if (!signer) return null;
  const base = cfg.publicBaseUrl || (origin ?? "").replace(/\/+$/, "");
  if (!base) return { link: () => Promise.reject(noOrigin()) };
  return createFileLinks(signer, workspaceId, base, cfg.linkTtlSeconds);
}

const noOrigin = () =>
  new FilesError(
    "link_unavailable",
    "No absolute file link can be made: PUBLIC_BASE_URL is not set and this conversation's origin is unknown.",
  );

/**
 * What a conversation needs for its file tools, its result spill and its screenshots; `origin`
 * as above. With a scope, every path goes through it (its own results only; a visitor's folder).
 */
export function conversationFiles(
  env: Env,
  workspaceId: string,
  origin?: string | null,
  scope?: FileScope,
): { files: FileOps; links: FileLinks | null; spill: ResultSpill } {
  const all = workspaceFiles(env, workspaceId);
  const files = scope ? scopedFiles(all, scope) : all;
  return { files, links: workspaceFileLinks(env, workspaceId, origin), spill: createResultSpill(files) };
}
