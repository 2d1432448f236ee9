/**
 * A conversation's browser as it holds it: a link to its workspace's browser fleet, where the
 * pages live. Browser tools run there (their results, tabs and browser time come back); the live
 * view's controls are forwarded there; tabs are published into the conversation's state.
 */
import type { BrowserInput, ProfileSaved, TabList } from "../../schemas/browser-api";
import type { BrowserTab } from "../../schemas/events";
import type { FleetConversation, ToolEnvelope } from "../engine/browser/fleet/fleet-wire";
import { type Redaction, redactionOf, SecretRedactor } from "../engine/secrets/secret-redactor";
import type { RpcResult } from "../engine/rpc-result";
import type { RemoteBrowser } from "../engine/tools/browser-remote";
import type { CaughtDownload } from "../engine/browser/downloads";
import type { SaveFile, Summarize, UploadRead } from "../engine/tools/browser-shared";
import { type ToolContext, ToolError } from "../engine/tools/tool";
import type { BrowserFleetObject } from "../browser-fleet/browser-fleet-object";

/** What the link needs from its conversation. */
export interface BrowserLinkDeps {
  fleet(): DurableObjectStub<BrowserFleetObject>;
  /** The conversation as the fleet needs to know it (read at each call). */
  conversation(): FleetConversation;
  scriptTimeoutMs: number;
  publishTabs(tabs: BrowserTab[]): void;
  /** Reads a secret's value from the workspace (to blank typed secrets out of what the conversation shows). */
  readSecret(name: string): Promise<{ value: string } | null>;
  /** The names of secrets typed in the browser, as last reported (kept by the conversation). */
  typedSecrets: { get(): string[]; set(names: string[]): void };
  /** Browser time a call used (ms), for the run's usage. */
  meter(runId: string | null, ms: number): void;
  /** The call waits for a browser (the CUSTOM `browser_queued` notice). */
  queued(runId: string | null, toolCallId: string, position: number): void;
  summarize?: Summarize;
  saveFile?: SaveFile;
  /** Largest file upload_file sends (BROWSER_UPLOAD_MAX_BYTES). */
  uploadMaxBytes: number;
  /** Reads a file of the conversation's workspace files for upload_file. */
  readFile(path: string, maxBytes: number): Promise<UploadRead>;
  /** Saves a download of a run's (or a direct) call under downloads/ and announces it; returns the path. */
  saveDownload(runId: string | null, file: CaughtDownload): Promise<string>;
}

/** The conversation's handle on its browser in the fleet. */
export class BrowserLink implements RemoteBrowser {
  readonly scriptTimeoutMs: number;
  readonly uploadMaxBytes: number;
  private readonly typed = new SecretRedactor();

  constructor(private readonly deps: BrowserLinkDeps) {
    this.scriptTimeoutMs = deps.scriptTimeoutMs;
    this.uploadMaxBytes = deps.uploadMaxBytes;
  }

  get vision(): boolean {
    return this.deps.conversation().vision;
  }

  async call(name: string, args: unknown, ctx: ToolContext): Promise<Record<string, unknown>> {
    const { summarize, saveFile } = this.deps;
    const never = new AbortController().signal;
    const envelope = (await this.deps.fleet().browserTool(
      this.deps.conversation(),
      name,
      args,
      { toolCallId: ctx.toolCallId, runId: ctx.runId },
      {
        summarize: summarize ? (text: string, prompt: string) => summarize(text, prompt, never) : undefined,
        saveFile: saveFile
          ? (path: string, bytes: Uint8Array, type: string) => saveFile(path, bytes, type)
          : undefined,
        readFile: (path: string, maxBytes: number) => this.deps.readFile(path, maxBytes),
        saveDownload: (file: CaughtDownload) => this.deps.saveDownload(ctx.runId, file),
        queued: (position: number) => this.deps.queued(ctx.runId, ctx.toolCallId, position),
      },
    )) as unknown as ToolEnvelope;
    for (const [name, value] of envelope.typedNow) this.typed.remember(name, value);
    if (envelope.typedSecrets.length > this.deps.typedSecrets.get().length)
      this.deps.typedSecrets.set(envelope.typedSecrets);
    this.deps.publishTabs(envelope.tabs);
    this.deps.meter(ctx.runId, envelope.browserMs);
    if (envelope.ok) return envelope.value;
    const { code, message } = envelope.error;
    throw code ? new ToolError(code, message) : new Error(message);
  }

  async resolveTab(tabId: number | undefined, holdUntil: number): Promise<number> {
    const res = await this.deps.fleet().resolveTab(this.deps.conversation(), tabId, holdUntil);
    if (!res.ok) throw new ToolError(res.code, res.message);
    return res.value.tab_id;
  }

  /** The redaction of every secret typed in the browser, for tool results and run output. */
  readonly redaction: Redaction = redactionOf(this.typed, () => this.loadTyped());

  /** Replaces the values of secrets typed in the browser with `<secret:name>`. */
  async redact<T>(value: T): Promise<T> {
    await this.loadTyped();
    return this.typed.value(value);
  }

  /** After a wake: reads the values of the secrets typed before (their names are kept). */
  private async loadTyped(): Promise<void> {
    for (const name of this.deps.typedSecrets.get()) {
      if (this.typed.knows(name)) continue;
      const secret = await this.deps.readSecret(name).catch(() => null);
      if (secret) this.typed.remember(name, secret.value);
    }
  }

  tabs(): Promise<RpcResult<TabList>> {
    return this.deps.fleet().tabs(this.deps.conversation()) as Promise<RpcResult<TabList>>;
  }

  tabScreenshot(tabId: number): Promise<RpcResult<Uint8Array>> {
    return this.deps.fleet().tabScreenshot(this.deps.conversation(), tabId) as Promise<RpcResult<Uint8Array>>;
  }

  tabInput(tabId: number, input: BrowserInput): Promise<RpcResult<{ ok: true }>> {
    return this.deps.fleet().tabInput(this.deps.conversation(), tabId, input) as Promise<
      RpcResult<{ ok: true }>
    >;
  }

  saveBrowser(): Promise<RpcResult<ProfileSaved>> {
    return this.deps.fleet().saveBrowser(this.deps.conversation()) as Promise<RpcResult<ProfileSaved>>;
  }

  tabFacts(tabId: number): Promise<{ url: string; title: string } | null> {
    return this.deps.fleet().tabFacts(this.deps.conversation(), tabId);
  }

  liveView(tabId: number): Promise<Response> {
    return this.deps.fleet().liveView(this.deps.conversation(), tabId);
  }

  /** The conversation was deleted: the fleet closes its context and forgets its tabs. */
  shutdown(): Promise<void> {
    return this.deps.fleet().forget(this.id());
  }

  private id(): string {
    return this.deps.conversation().id;
  }
}
