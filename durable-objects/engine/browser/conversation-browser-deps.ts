/** What a conversation's browser (./conversation-browser.ts) needs from the fleet. */
import type { ProfileSaved } from "../../../schemas/browser-api";
import type { BrowserFilesLimits } from "../config/browser-config";
import type { BrowserRecording } from "../recording/browser-recording";
import type { RpcResult } from "../rpc-result";
import type { SecretReader } from "../tools/browser-shared";
import type { BrowserSessionOptions, ContextSource, ProfileLoader } from "./browser-session-types";
import type { DownloadSink } from "./downloads";
import type { LiveViewOptions } from "./live-view";
import type { ProfileState } from "./profile-state";
import type { TabRecord } from "./tab-store";

/** What a conversation's browser needs from the fleet. */
export interface ConversationBrowserDeps {
  /** The conversation's id: the scope of its rows in the fleet's SQLite. */
  conversationId: string;
  source: ContextSource;
  sql: SqlStorage;
  options: BrowserSessionOptions;
  secrets: SecretReader;
  /** Publishes the tab list to the conversation's state. */
  publishTabs(tabs: TabRecord[]): void;
  /** Asks for a wake-up (the Durable Object's alarm) no later than `at`, to close an idle browser. */
  wakeBy?(at: number): Promise<void>;
  /** The conversation's browser profile: loaded on the first launch, saved back on request and on close. */
  profile?: BrowserProfileLink;
  live: LiveViewOptions;
  /** Set when the conversation records its browser: where recordings go. */
  recording?: BrowserRecording;
  /** Caps on uploads and downloads. */
  files: BrowserFilesLimits;
  /** Where a download goes while no tool call runs (a person's click in the live view); none: refused. */
  outsideDownloads?: DownloadSink;
}

/** A conversation's link to its workspace's browser profile. */
export interface BrowserProfileLink extends ProfileLoader {
  save(snapshot: ProfileState, knownSites: string[]): Promise<RpcResult<ProfileSaved>>;
}
