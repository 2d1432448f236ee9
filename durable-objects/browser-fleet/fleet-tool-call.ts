/**
 * One browser tool call in the fleet: the real tool (../engine/tools/browser.ts) runs against
 * the conversation's browser here, with the conversation's callbacks for summarising and saving
 * files; its result or error comes back as data (an RPC error would lose the error's code).
 */
import type { ConversationBrowser } from "../engine/browser/conversation-browser";
import type {
  FleetCall,
  FleetCallbacks,
  FleetConversation,
  FleetError,
} from "../engine/browser/fleet/fleet-wire";
import { CirrusError } from "../engine/errors";
import { createBrowserTools } from "../engine/tools/browser";
import type { SecretReader } from "../engine/tools/browser-shared";

/** A tool's value, or its error as data. */
export type ToolOutcome = { ok: true; value: Record<string, unknown> } | { ok: false; error: FleetError };

/** Runs the named browser tool with already validated arguments. */
export async function runFleetTool(
  browser: ConversationBrowser,
  conv: FleetConversation,
  name: string,
  args: unknown,
  call: FleetCall,
  callbacks: FleetCallbacks,
  secrets: SecretReader,
): Promise<ToolOutcome> {
  const { summarize, saveFile, readFile, saveDownload } = callbacks;
  const uploadMaxBytes = browser.uploadMaxBytes;
  const tools = createBrowserTools({
    browser,
    secrets,
    summarize: summarize ? (text, prompt) => summarize(text, prompt) : undefined,
    saveFile: saveFile ? (path, bytes, type) => saveFile(path, bytes, type) : undefined,
    uploads: readFile
      ? { maxBytes: uploadMaxBytes, read: (path) => readFile(path, uploadMaxBytes) }
      : undefined,
    uploadMaxBytes,
    vision: conv.vision,
  });
  const tool = tools.find((t) => t.name === name);
  if (!tool)
    return {
      ok: false,
      error: { code: "unknown_tool", message: `There is no browser tool named "${name}".` },
    };
  browser.beginCall(call.runId, saveDownload ? (file) => saveDownload(file) : null);
  try {
    const value = (await tool.execute(args as never, {
      conversationId: conv.id,
      workspaceId: conv.workspaceId,
      runId: call.runId,
      toolCallId: call.toolCallId,
      signal: new AbortController().signal,
    })) as Record<string, unknown>;
    return { ok: true, value };
  } catch (err) {
    return { ok: false, error: asData(err) };
  } finally {
    browser.endCall();
  }
}

/** An error as data: the codes of Cirrus's own errors survive, anything else is a message. */
export function asData(err: unknown): FleetError {
  if (err instanceof CirrusError) return { code: err.code, message: err.message };
  return { code: null, message: err instanceof Error ? err.message : String(err) };
}
