/** Settings of workspace files, read from environment variables with safe defaults. */
import type { FileLimits } from "../files/file-ledger";

/** Largest single file: 100 MiB (`FILES_MAX_FILE_BYTES`). */
export const DEFAULT_MAX_FILE_BYTES = 100 * 1024 * 1024;
/** Largest total per workspace: 1 GiB (`FILES_MAX_WORKSPACE_BYTES`). */
export const DEFAULT_MAX_WORKSPACE_BYTES = 1024 * 1024 * 1024;
/** Lifetime of a signed file link: 15 minutes (`FILES_LINK_TTL_SECONDS`). */
export const DEFAULT_LINK_TTL_SECONDS = 15 * 60;

/** Everything the file layer can be tuned with. */
export interface FilesConfig {
  limits: FileLimits;
  linkTtlSeconds: number;
  /** Origin put in front of signed links (`PUBLIC_BASE_URL`); without it, the conversation's origin. */
  publicBaseUrl: string;
  /** `FILES_SIGNING_SECRET`, else derived from `ADMIN_TOKEN`; null when neither is set. */
  signingSecret: string | null;
}

type Vars = Record<string, unknown>;

function positive(env: Vars, name: string, fallback: number): number {
  const raw = env[name];
  const n = typeof raw === "string" && raw.trim() !== "" ? Number(raw) : Number.NaN;
  return Number.isFinite(n) && n > 0 ? Math.floor(n) : fallback;
}

const str = (v: unknown) => (typeof v === "string" && v.trim() !== "" ? v.trim() : null);

/** Reads the file settings from the Worker's environment. */
export function filesConfig(env: Vars): FilesConfig {
  const secret = str(env.FILES_SIGNING_SECRET);
  const admin = str(env.ADMIN_TOKEN);
  return {
    limits: {
      maxFileBytes: positive(env, "FILES_MAX_FILE_BYTES", DEFAULT_MAX_FILE_BYTES),
      maxWorkspaceBytes: positive(env, "FILES_MAX_WORKSPACE_BYTES", DEFAULT_MAX_WORKSPACE_BYTES),
    },
    linkTtlSeconds: positive(env, "FILES_LINK_TTL_SECONDS", DEFAULT_LINK_TTL_SECONDS),
    publicBaseUrl: (str(env.PUBLIC_BASE_URL) ?? "").replace(/\/+$/, ""),
    // The derived secret is labelled so it can never be replayed as the admin token itself.
    signingSecret: secret ?? (admin ? `cirrus-files-link-v1:${admin}` : null),
  };
}
