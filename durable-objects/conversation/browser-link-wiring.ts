/**
 * The conversation's browser link (./browser-link.ts) as its wiring builds it: the fleet of its
 * workspace, the conversation as the fleet needs to know it, and the conversation's side of
 * browser time, secrets, summaries, screenshots, uploads and downloads.
 */
import { browserFleetStub } from "../addresses/browser-fleet";
import type { CaughtDownload } from "../engine/browser/downloads";
import { browserFilesConfig } from "../engine/config/browser-config";
import { readEnv } from "../engine/config/env";
import type { FileOps } from "../engine/files/scoped-files";
import type { Summarize } from "../engine/model/summarize";
import type { WorkspaceObject } from "../workspace/workspace-object";
import { BrowserLink } from "./browser-link";
import { uploadReader } from "./browser-files";
import { type BrowserMeter, browserQueuedEvent } from "./browser-usage";
import type { ConversationInfo } from "./conversation-meta";
import { imageFiles } from "./conversation-policy";
import type { WiringParts } from "./wiring-parts";

/** What the conversation's browser link is built from besides the wiring's parts. */
export interface BrowserLinkSources {
  /** The workspace's allowed_domains, as of the last tool set built. */
  workspaceDomains(): string[] | null;
  /** Whether the model is shown screenshots, as of the last tool set built. */
  vision(): boolean;
  meter: BrowserMeter;
  summarize: Summarize;
  /** The files as this conversation reaches them. */
  files(): FileOps;
  workspace(): DurableObjectStub<WorkspaceObject>;
  saveDownload(runId: string | null, file: CaughtDownload): Promise<string>;
}

/** The conversation's browser in its workspace's fleet (nothing is launched until a tab tool runs). */
export function conversationBrowserLink(
  p: WiringParts,
  info: ConversationInfo,
  s: BrowserLinkSources,
): BrowserLink {
  return new BrowserLink({
    fleet: () => browserFleetStub(p.env, info.workspace_id),
    conversation: () => ({
      id: info.id,
      workspaceId: info.workspace_id,
      allowedDomains: info.allowed_domains ?? null,
      workspaceDomains: s.workspaceDomains(),
      profile: info.browser_profile ?? null,
      vision: s.vision(),
      recording: info.recording ?? false,
    }),
    scriptTimeoutMs: readEnv(p.env).PAGE_SCRIPT_TIMEOUT_MS,
    publishTabs: (tabs) => p.state.setTabs(tabs),
    meter: (runId, ms) => s.meter.add(runId, ms),
    queued: (runId, toolCallId, position) => {
      if (runId) p.emit(runId, browserQueuedEvent(toolCallId, position));
    },
    readSecret: (name) => s.workspace().readSecret(name),
    typedSecrets: {
      get: () => p.meta.get<string[]>("typed_secrets") ?? [],
      set: (names) => p.meta.set("typed_secrets", names),
    },
    summarize: s.summarize,
    saveFile: imageFiles(s.files()).save,
    uploadMaxBytes: browserFilesConfig(p.env).uploadMaxBytes,
    readFile: uploadReader(s.files()),
    saveDownload: (runId, file) => s.saveDownload(runId, file),
  });
}
