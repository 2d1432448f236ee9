/**
 * The Cron Trigger's drain of the retired global CORS list (the `__cors__` workspace instance):
 * each origin's rows move into that origin's OriginRegistry, then leave the list, which is
 * dropped when empty. Until then an origin copies its own rows on first use.
 */
import {
  LEGACY_CORS_INSTANCE,
  originRegistry,
} from "../durable-objects/origin-registry/origin-registry-object";
import { workspaceStub } from "./stubs";

/** Origins moved per page (each takes two calls). */
const PAGE = 50;

/** Moves every origin of the retired list to its own object; returns how many moved. */
export async function drainLegacyCors(env: Env): Promise<number> {
  const legacy = workspaceStub(env, LEGACY_CORS_INSTANCE);
  let moved = 0;
  for (;;) {
    // Each origin leaves the list once copied, so every page starts from the beginning again.
    const page = await legacy.legacyOriginsPage(PAGE);
    if (page.length === 0) return moved;
    const results = await Promise.allSettled(
      page.map(async ({ origin, refs }) => {
        await originRegistry(env, origin).takeLegacy(refs);
        await legacy.forgetLegacyOrigin(origin);
      }),
    );
    const done = results.filter((r) => r.status === "fulfilled").length;
    moved += done;
    if (done < page.length) {
      // The rest stay listed and move on the next sweep.
      console.warn(`cron sweep: ${page.length - done} origins could not be moved to their registry`);
      return moved;
    }
  }
}
