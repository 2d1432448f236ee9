/**
 * What the live view does with a conversation's browser in the fleet: list its tabs, take a
 * tab's screenshot, forward a person's input, save the browser into its profile, stream a tab.
 */
import type { BrowserInput, ProfileSaved, TabList } from "../../schemas/browser-api";
import type { ConversationBrowser } from "../engine/browser/conversation-browser";
import { InputRefused } from "../engine/browser/remote-input";
import type { BrowserTab } from "../../schemas/events";
import { fail, ok, type RpcResult } from "../engine/rpc-result";

const noConversation = () => fail(404, "not_found", "No such conversation.");
const noTab = (tabId: number) => fail(404, "not_found", `No tab ${tabId} in this conversation.`);

/** The tabs as the conversation's state shows them. */
export function publicTabs(browser: ConversationBrowser): BrowserTab[] {
  return browser.store
    .tabs()
    .map(({ id, window_id, url, title, active }) => ({ id, window_id, url, title, active }));
}

/** The browser's tabs and session facts. */
export function tabList(browser: ConversationBrowser | null): RpcResult<TabList> {
  if (!browser) return noConversation();
  return ok({
    data: publicTabs(browser),
    browser: {
      connected: browser.store.sessionId() !== null,
      launches: browser.store.launches(),
      live_viewers: browser.liveViewers(),
    },
  });
}

/** A PNG of one tab. */
export async function tabScreenshot(
  browser: ConversationBrowser | null,
  tabId: number,
): Promise<RpcResult<Uint8Array>> {
  const png = await browser?.screenshot(tabId);
  return png ? ok(png) : noTab(tabId);
}

/** Forwards a person's input to a tab as trusted input; what is typed is never logged. */
export async function tabInput(
  browser: ConversationBrowser | null,
  tabId: number,
  input: BrowserInput,
): Promise<RpcResult<{ ok: true }>> {
  try {
    if (await browser?.input(tabId, input)) return ok({ ok: true as const });
    return noTab(tabId);
  } catch (err) {
    if (err instanceof InputRefused) return fail(400, err.code, err.message);
    // The error may quote the input; only its kind is reported.
    return fail(422, "input_failed", `The ${input.type} could not be delivered to tab ${tabId}.`);
  }
}

/** Saves the browser's cookies and local storage into the conversation's browser profile. */
export function saveBrowser(browser: ConversationBrowser | null): Promise<RpcResult<ProfileSaved>> {
  return browser ? browser.saveProfile() : Promise.resolve(noConversation());
}

/** A tab's live view as an SSE response, or the error in the API's one error shape. */
export async function liveViewResponse(
  browser: ConversationBrowser | null,
  tabId: number,
): Promise<Response> {
  const body = await browser?.live(tabId).catch(() => "failed" as const);
  if (!body)
    return Response.json(
      { error: { code: "not_found", message: `No tab ${tabId} in this conversation.` } },
      { status: 404 },
    );
  if (body === "failed")
    return Response.json(
      { error: { code: "live_view_failed", message: `The browser of tab ${tabId} could not be reached.` } },
      { status: 422 },
    );
  return new Response(body, {
    headers: { "content-type": "text/event-stream", "cache-control": "no-store", "x-accel-buffering": "no" },
  });
}
