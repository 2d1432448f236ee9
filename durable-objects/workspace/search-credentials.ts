/**
 * A search key goes only to its engine's host: when a settings change moves an engine's base URL
 * to another origin without giving its key in the same change, the stored key is dropped — or,
 * for the engine in use (which cannot work without it), the change is refused.
 */
import { sameOrigin } from "../../schemas/credentials";
import type { SearchSettings } from "../../schemas/settings";
import { BING_BASE_URL, BRAVE_BASE_URL, GOOGLE_BASE_URL } from "../engine/search/json-engines";

type KeyField = "bing_api_key" | "google_api_key" | "brave_api_key";

/** The engines with a key, the key's field and the host the key is sent to without a base URL. */
const KEYED: { engine: "bing" | "google" | "brave"; key: KeyField; host: string }[] = [
  { engine: "bing", key: "bing_api_key", host: BING_BASE_URL },
  { engine: "google", key: "google_api_key", host: GOOGLE_BASE_URL },
  { engine: "brave", key: "brave_api_key", host: BRAVE_BASE_URL },
];

/**
 * `next` with the keys dropped whose engine's base URL moved origin (and were not given again);
 * a problem instead when that engine is the one in use.
 */
export function dropMovedKeys(
  current: SearchSettings,
  next: SearchSettings,
  update: Partial<SearchSettings> | undefined,
): { search: SearchSettings; cleared: boolean; problem?: string } {
  const search = { ...next };
  let cleared = false;
  for (const { engine, key, host } of KEYED) {
    if (update?.[key] !== undefined || search[key] === null) continue;
    const before = current.base_urls[engine] ?? host;
    const after = search.base_urls[engine] ?? host;
    if (sameOrigin(before, after)) continue;
    if (engine === search.engine)
      return {
        search,
        cleared: false,
        problem: `The ${engine} base URL moves to another host; give ${key} again in the same request (the stored key was given for ${new URL(before).host} only).`,
      };
    search[key] = null;
    cleared = true;
  }
  return { search, cleared };
}
