/**
 * What a conversation and its workspace's browser fleet say to each other over RPC: who the
 * conversation is (its browser settings travel with every call), the callbacks the fleet may
 * use during a tool call, and the envelope a tool call comes back in.
 */
import type { BrowserTab } from "../../../../schemas/events";
import type { UploadRead } from "../../tools/browser-shared";
import type { CaughtDownload } from "../downloads";

/** A conversation as the fleet needs to know it. */
export interface FleetConversation {
  id: string;
  workspaceId: string;
  /** The conversation's allowed_domains (null: no limit of its own). */
  allowedDomains: string[] | null;
  /** The workspace's allowed_domains as of the last tool set built. */
  workspaceDomains: string[] | null;
  /** The browser profile the conversation's context starts from. */
  profile: string | null;
  /** The model is shown screenshots. */
  vision: boolean;
  /** Whether its tabs are recorded (rrweb, into R2 under the conversation). */
  recording?: boolean;
}

/** What the conversation lends the fleet during one tool call. */
export interface FleetCallbacks {
  /** Summarises with the conversation's model (get_tab_content's prompt). */
  summarize?(text: string, prompt: string): Promise<string>;
  /** Saves a file to the workspace (screenshots) and returns its path. */
  saveFile?(path: string, bytes: Uint8Array, contentType: string): Promise<string>;
  /** Reads a workspace file for upload_file (through the conversation's files: a visitor's stay in its folder). */
  readFile?(path: string, maxBytes: number): Promise<UploadRead>;
  /** Saves a file a page downloaded under downloads/ and emits `file_downloaded`; returns its path. */
  saveDownload?(file: CaughtDownload): Promise<string>;
  /** The call waits for a browser: its place in the queue. */
  queued?(position: number): void;
}

/** A tool call's identity in the conversation. */
export interface FleetCall {
  toolCallId: string;
  runId: string | null;
}

/** An error a tool threw, as data: `code` for the errors the model reads, null for unexpected ones. */
export interface FleetError {
  code: string | null;
  message: string;
}

/**
 * A browser tool's outcome, with the tabs to publish, the browser time used since the last report,
 * the names of the secrets typed in the browser and the values typed during this call (the
 * conversation redacts them from results and output; they are never stored or logged).
 */
export type ToolEnvelope = {
  tabs: BrowserTab[];
  browserMs: number;
  typedSecrets: string[];
  typedNow: [string, string][];
} & ({ ok: true; value: Record<string, unknown> } | { ok: false; error: FleetError });
