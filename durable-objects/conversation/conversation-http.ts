/**
 * The conversation object's own HTTP: `/events` (the whole conversation) and `/runs/{id}/events`
 * (one run, ending with it) as SSE from `?after=`, and `/tabs/{id}/live`, a tab's live view.
 */
import type { RuntimeConfig } from "../engine/config/runtime-config";
import type { EventLog } from "../engine/store/event-log";
import { sseResponse } from "../engine/store/sse";
import type { BrowserLink } from "./browser-link";

/** What the conversation's HTTP reads. */
export interface HttpParts {
  log: EventLog;
  config: RuntimeConfig;
  browser(): BrowserLink | null;
}

/** Routes one request the Worker forwarded to the conversation object. */
export async function conversationFetch(p: HttpParts, request: Request): Promise<Response> {
  const url = new URL(request.url);
  const after = Number(url.searchParams.get("after") ?? "0");
  const live = url.pathname.match(/^\/tabs\/(\d+)\/live$/);
  if (live) return liveView(p.browser(), Number(live[1]));
  const runMatch = url.pathname.match(/^\/runs\/([^/]+)\/events$/);
  if (url.pathname === "/events" || runMatch) {
    return sseResponse(p.log, {
      after: Number.isFinite(after) && after > 0 ? Math.floor(after) : 0,
      runId: runMatch?.[1],
      heartbeatMs: p.config.heartbeatMs,
      endOnTerminal: Boolean(runMatch),
    });
  }
  return new Response("not found", { status: 404 });
}

/** A tab's live view, streamed from the fleet where the page lives. */
function liveView(browser: BrowserLink | null, tabId: number): Promise<Response> | Response {
  if (!browser)
    return Response.json({ error: { code: "not_found", message: "No such conversation." } }, { status: 404 });
  return browser.liveView(tabId);
}
