/**
 * One guard for every request a browser session makes: CDP's Fetch domain enabled on the browser
 * target (not on one page) pauses each request of every page, popup, window, frame and worker
 * before it leaves. In the fleet a session holds the contexts of several conversations, so the
 * guard routes each request to the context it comes from (by its frame: a page's or popup's
 * target, a frame of one of its pages) and that conversation's rules decide it — documents (any
 * frame, popups, form posts, every redirect hop) and scripted requests (fetch, XHR, workers,
 * beacons) must satisfy the address rules and `allowed_domains`; a page's passive assets (images,
 * styles, scripts, fonts, media) the address rules only, so sites that load them from a CDN keep
 * working. A request no context can be found for is held to the strictest rules of them all, and
 * refused while no context is under the guard (right after a restart, before the contexts are back).
 */
import type { Browser, CDPSession } from "@cloudflare/puppeteer";
import { type NavigationPolicy, navigationRefusal, subresourcePolicy } from "./navigation-guard";

/** Resource types held to the address rules only (allowed_domains limit the rest). */
const PASSIVE_TYPES = new Set(["Image", "Stylesheet", "Script", "Font", "Media", "TextTrack", "Manifest"]);

/** The parts of Fetch.requestPaused the guard reads. */
export interface PausedRequest {
  requestId: string;
  request: { url: string; method: string; headers: Record<string, string> };
  frameId?: string;
  resourceType: string;
  /** Set at the response stage. */
  responseStatusCode?: number;
  responseHeaders?: { name: string; value: string }[];
}

/** The root connection of a browser (puppeteer's Connection): browser-target commands and events. */
export type BrowserConnection = ReturnType<CDPSession["connection"]> & object;

/** Sends a CDP command on the browser's root connection. */
export type SendCommand = (method: string, params: object) => Promise<unknown>;

/** Handles a response the guard let through at the response stage (downloads); true when it did. */
export type ResponseHandler = (paused: PausedRequest, send: SendCommand) => Promise<boolean>;

/** One browser context's part in the guard (one conversation's browser). */
export interface ContextGuard {
  /** The context's rules, read per request (a changed allowed_domains applies at once). */
  policy(): NavigationPolicy;
  /** Whether a frame that is not a target (an iframe in one of its pages) belongs to the context. */
  hasFrame(frameId: string): boolean;
  /** A document request of this frame (a page's frame id is its target id) was refused, and why; true when the frame is a tab's page. */
  onRefusal(frameId: string, reason: string): boolean;
  /** Responses of documents to look at before the page gets them (downloads). */
  onResponse?: ResponseHandler;
}

/** What CDP's Target domain says of a target. */
export interface TargetInfo {
  targetId: string;
  type: string;
  browserContextId?: string;
}

/** Why a request is refused, or null when it may go. */
export function requestRefusal(url: string, resourceType: string, policy: NavigationPolicy): string | null {
  const web = /^https?:/i.test(url);
  if (!web && resourceType !== "Document") return null; // data:, blob: and the like never leave the browser
  return navigationRefusal(url, PASSIVE_TYPES.has(resourceType) ? subresourcePolicy(policy) : policy);
}

const guards = new WeakMap<Browser, RequestGuard>();
/** Frames remembered at most (the memory is dropped whole when full). */
const MAX_FRAMES = 5_000;

/** The guard of a browser session already made, or null. */
export function existingGuard(browser: Browser): RequestGuard | null {
  return guards.get(browser) ?? null;
}

/** The guard of a browser session (made on first use). */
export function requestGuardOf(browser: Browser, connection: BrowserConnection): RequestGuard {
  let guard = guards.get(browser);
  if (!guard) {
    guard = new RequestGuard(connection);
    guards.set(browser, guard);
  }
  return guard;
}

/** The guard over one browser connection, shared by the contexts on it. */
export class RequestGuard {
  private enabling: Promise<void> | null = null;
  private readonly contexts = new Map<string, ContextGuard>();
  /** Target id → browser context id, from the browser's target events. */
  private readonly targets = new Map<string, string>();
  /** Frames that are no targets → the context that claimed them (undefined: none yet). */
  private readonly frames = new Map<string, string | undefined>();
  /** Sends a command on the browser's root connection. */
  readonly send: SendCommand;
  /** Requests refused so far (tests read it). */
  refused = 0;

  constructor(private readonly connection: BrowserConnection) {
    this.send = (method, params) =>
      (connection.send as (m: string, p: object) => Promise<unknown>).call(connection, method, params);
  }

  /** Puts a context under the guard (starting it on first use); its requests follow its rules from now. */
  async add(contextId: string, context: ContextGuard): Promise<void> {
    this.contexts.set(contextId, context);
    await this.arm();
  }

  /** Starts intercepting (once): until contexts are added, every request is refused. */
  async arm(): Promise<void> {
    this.enabling ??= this.enable();
    await this.enabling;
  }

  /** Takes a context out (it was closed). */
  remove(contextId: string): void {
    this.contexts.delete(contextId);
  }

  private async enable(): Promise<void> {
    const track = (info: TargetInfo) => {
      if (info.browserContextId) this.targets.set(info.targetId, info.browserContextId);
    };
    this.connection.on("Target.targetCreated", (e: unknown) =>
      track((e as { targetInfo: TargetInfo }).targetInfo),
    );
    this.connection.on("Target.targetInfoChanged", (e: unknown) =>
      track((e as { targetInfo: TargetInfo }).targetInfo),
    );
    this.connection.on("Target.targetDestroyed", (e: unknown) =>
      this.targets.delete((e as { targetId: string }).targetId),
    );
    this.connection.on("Fetch.requestPaused", (event: unknown) => {
      this.decide(event as PausedRequest).catch(() => {});
    });
    const { targetInfos } = (await this.send("Target.getTargets", {})) as { targetInfos: TargetInfo[] };
    for (const info of targetInfos) track(info);
    await this.send("Fetch.enable", {
      patterns: [
        { urlPattern: "*", requestStage: "Request" },
        // Only documents can turn into downloads; other responses pass without a second pause.
        { urlPattern: "*", resourceType: "Document", requestStage: "Response" },
      ],
    });
  }

  /** The context a request's frame belongs to, or null when none of the guard's. */
  private async contextOf(frameId: string | undefined): Promise<ContextGuard | null> {
    if (!frameId) return null;
    let contextId = this.targets.get(frameId) ?? this.frames.get(frameId);
    if (contextId === undefined && !this.frames.has(frameId)) {
      const info = (await this.send("Target.getTargetInfo", { targetId: frameId }).catch(() => null)) as {
        targetInfo: TargetInfo;
      } | null;
      if (info?.targetInfo.browserContextId) {
        contextId = info.targetInfo.browserContextId;
        this.targets.set(frameId, contextId);
      }
    }
    if (contextId !== undefined) return this.contexts.get(contextId) ?? null;
    // A frame that is no target (an iframe in a page): asked about once, then found locally.
    if (this.frames.size >= MAX_FRAMES) this.frames.clear();
    this.frames.set(frameId, undefined);
    for (const [id, context] of this.contexts)
      if (context.hasFrame(frameId)) {
        this.frames.set(frameId, id);
        return context;
      }
    return null;
  }

  /** Decides a paused request; one that cannot be decided (an error) is refused, never left hanging. */
  private async decide(paused: PausedRequest): Promise<void> {
    try {
      await this.judge(paused);
    } catch {
      await this.send("Fetch.failRequest", { requestId: paused.requestId, errorReason: "BlockedByClient" });
    }
  }

  private async judge(paused: PausedRequest): Promise<void> {
    const context = await this.contextOf(paused.frameId);
    const pass = () => this.send("Fetch.continueRequest", { requestId: paused.requestId });
    if (paused.responseStatusCode !== undefined || paused.responseHeaders) {
      const handled = context?.onResponse ? await context.onResponse(paused, this.send) : false;
      if (!handled) await pass();
      return;
    }
    const judges = context ? [context] : [...this.contexts.values()];
    let refusal: string | null =
      judges.length === 0 ? "No conversation's rules are known for this request yet." : null;
    for (const judge of judges) {
      refusal = requestRefusal(paused.request.url, paused.resourceType, judge.policy());
      if (refusal) break;
    }
    if (!refusal) {
      await pass();
      return;
    }
    this.refused++;
    const tab =
      context !== null &&
      paused.resourceType === "Document" &&
      paused.frameId !== undefined &&
      context.onRefusal(paused.frameId, refusal);
    // A tab's refused navigation is "Aborted": it stays on the page it was on (no error page).
    const errorReason = tab ? "Aborted" : "BlockedByClient";
    await this.send("Fetch.failRequest", { requestId: paused.requestId, errorReason });
  }
}
