/** Settings of workspace files, from the one environment schema (./env.ts). */
import type { FileLimits } from "../files/file-ledger";
import { readEnv } from "./env";

/** Everything the file layer can be tuned with. */
export interface FilesConfig {
  limits: FileLimits;
  linkTtlSeconds: number;
  /** Origin put in front of signed links (`PUBLIC_BASE_URL`); without it, the conversation's origin. */
  publicBaseUrl: string;
}

/** Reads the file settings from the Worker's environment. */
export function filesConfig(env: object): FilesConfig {
  const v = readEnv(env);
  return {
    limits: { maxFileBytes: v.FILES_MAX_FILE_BYTES, maxWorkspaceBytes: v.FILES_MAX_WORKSPACE_BYTES },
    linkTtlSeconds: v.FILES_LINK_TTL_SECONDS,
    publicBaseUrl: v.PUBLIC_BASE_URL ?? "",
  };
}
