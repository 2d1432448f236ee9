/**
 * Which workspace files the agent wrote in a conversation, read from its messages: the paths
 * returned by successful file-writing tool calls. Visitors may download only these.
 */

import { normalizePath } from "../engine/files/paths";
import type { StoredMessage } from "../engine/store/message-store";

/** Tools whose successful result `{path, …}` names a file they wrote. */
const WRITING_TOOLS = new Set(["opfs_write", "screenshot"]);

function pathIn(content: string | null | undefined): string | null {
  try {
    const parsed = JSON.parse(content ?? "") as { path?: unknown; error?: unknown } | null;
    if (!parsed || parsed.error || typeof parsed.path !== "string") return null;
    return normalizePath(parsed.path);
  } catch {
    return null;
  }
}

/** The normalised paths of the files written by the conversation's tool calls. */
export function writtenFiles(messages: Iterable<StoredMessage>): Set<string> {
  const writers = new Set<string>();
  const paths = new Set<string>();
  for (const { message } of messages) {
    if (message.role === "assistant")
      for (const call of message.tool_calls ?? [])
        if (WRITING_TOOLS.has(call.function.name)) writers.add(call.id);
    if (message.role === "tool" && writers.has(message.tool_call_id)) {
      const path = pathIn(typeof message.content === "string" ? message.content : null);
      if (path) paths.add(path);
    }
  }
  return paths;
}
