/**
 * The deployment's two keys and their rotation, from the one environment schema (./env.ts):
 * SECRETS_KEY seals values at rest (engine/secret-box.ts), FILES_SIGNING_SECRET signs file links
 * (engine/files/signed-links.ts). Each falls back to ADMIN_TOKEN when unset, as before they were
 * their own keys; once set, the ADMIN_TOKEN-derived key is kept as a previous one, so what was made
 * under the fallback stays readable. `*_PREVIOUS` (comma-separated) keeps older keys readable.
 */
import { ConfigError } from "../errors";
import { readEnv } from "./env";

/** The root secrets of one key: the one new values are made with, then the older ones still accepted. */
export interface KeyRoots {
  current: string;
  previous: string[];
}

/** The label that keeps a link key derived from ADMIN_TOKEN from ever being the admin token itself. */
const LINK_FALLBACK_LABEL = "cirrus-files-link-v1:";

/** 503 `invalid_config` naming the variable a request needs (never a value). */
export function missingKey(name: "SECRETS_KEY" | "FILES_SIGNING_SECRET", what: string): ConfigError {
  return new ConfigError(
    "invalid_config",
    `Invalid configuration: ${name} is not set (nor ADMIN_TOKEN, its fallback); ${what} need it.`,
  );
}

function roots(own: string | undefined, previous: string[], fallback: string | null): KeyRoots | null {
  const current = own ?? fallback;
  if (!current) return null;
  const older = own && fallback ? [...previous, fallback] : previous;
  return { current, previous: older.filter((r) => r !== current) };
}

/** The secret store's roots; throws {@link missingKey} when neither SECRETS_KEY nor ADMIN_TOKEN is set. */
export function secretStoreRoots(env: object): KeyRoots {
  const v = readEnv(env);
  const found = roots(v.SECRETS_KEY, v.SECRETS_KEY_PREVIOUS, v.ADMIN_TOKEN ?? null);
  if (!found)
    throw missingKey("SECRETS_KEY", "secrets, browser profiles, MCP credentials and webhook secrets");
  return found;
}

/** The file-link roots, or null when neither FILES_SIGNING_SECRET nor ADMIN_TOKEN is set. */
export function fileLinkRoots(env: object): KeyRoots | null {
  const v = readEnv(env);
  return roots(
    v.FILES_SIGNING_SECRET,
    v.FILES_SIGNING_SECRET_PREVIOUS,
    v.ADMIN_TOKEN ? `${LINK_FALLBACK_LABEL}${v.ADMIN_TOKEN}` : null,
  );
}
