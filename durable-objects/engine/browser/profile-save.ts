/**
 * Saving a conversation's browser into its browser profile (./conversation-browser.ts): the open
 * browser's cookies and local storage are captured, then written into the profile for the sites
 * the browser knows.
 */
import type { ProfileSaved } from "../../../schemas/browser-api";
import { fail, type RpcResult } from "../rpc-result";
import type { BrowserSession } from "./browser-session";
import type { BrowserProfileLink } from "./conversation-browser-deps";
import type { ProfileState } from "./profile-state";
import type { TabStore } from "./tab-store";

/** Writes the browser's current cookies and local storage into the profile (refused without one). */
export async function saveIntoProfile(
  profile: BrowserProfileLink | undefined,
  session: BrowserSession,
  store: TabStore,
): Promise<RpcResult<ProfileSaved>> {
  if (!profile)
    return fail(
      409,
      "no_browser_profile",
      "This conversation was created without a browser_profile, so there is nothing to save to.",
    );
  await session.captureState();
  const snapshot: ProfileState = { cookies: store.cookies(), storage: store.storage() };
  return profile.save(snapshot, store.profileSites() ?? []);
}
