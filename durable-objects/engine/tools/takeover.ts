/**
 * request_takeover: hands a tab to the person (logins, 2FA, CAPTCHAs, anything needing their own
 * credentials). The run pauses; the person drives the tab through its live view and says done,
 * and the tool returns {status: "done", note, url, title}, or {status: "timeout"} when nobody
 * came in time, or {status: "unattended"} at once in a scheduled job's run.
 */
import { z } from "zod";
import { TabIdOption } from "./browser-shared";
import type { RemoteBrowser } from "./browser-remote";
import { durationText } from "./limit-text";
import { defineTool, suspendForTakeover, type Tool } from "./tool";

export const RequestTakeoverArgs = z.object({
  reason: z
    .string()
    .min(1)
    .max(2_000)
    .describe(
      'What the person should do in the tab, e.g. "Sign in to your shop account (it asks for a 2FA code)".',
    ),
  tab_id: TabIdOption.describe("The tab to hand over; defaults to the active tab."),
});

/** How request_takeover behaves in this conversation. */
export interface TakeoverToolOptions {
  browser: Pick<RemoteBrowser, "resolveTab">;
  timeoutMs: number;
  /** Unattended runs (scheduled jobs) have nobody to hand the tab to. */
  unattended?: boolean;
}

/** Creates request_takeover. */
export function createTakeoverTool(opts: TakeoverToolOptions): Tool {
  return defineTool({
    name: "request_takeover",
    description: `Hand a browser tab to the person and wait while they use it through its live view: for logins, 2FA codes, CAPTCHAs and anything that needs their own credentials (never ask for passwords in chat). The run pauses until they say done; you get {status: "done", note, url, title} of the tab. After ${durationText(opts.timeoutMs)} without them it returns {status: "timeout"}; in unattended runs {status: "unattended"} at once.`,
    parameters: RequestTakeoverArgs,
    runOnly: true,
    timeoutMs: 10_000,
    execute: async (args, ctx) => {
      if (opts.unattended) return { status: "unattended" };
      const now = Date.now();
      const tabId = await opts.browser.resolveTab(args.tab_id, now + opts.timeoutMs);
      return suspendForTakeover({
        takeover_id: ctx.toolCallId,
        tab_id: tabId,
        reason: args.reason,
        requested_at: now,
        expires_at: now + opts.timeoutMs,
      });
    },
  });
}
