/**
 * The one rule for which workspace files a tool call wrote: the `path` of a successful
 * `opfs_write`, the `saved_to` of a successful `screenshot`. The loop puts these on the TOOL_CALL_RESULT event
 * (`files`), and the conversation lets visitors download only these.
 */

import type { ToolResultFile } from "../../../schemas/events";
import type { StoredMessage } from "../store/message-store";
import { normalizePath } from "./paths";

/** The tools that write workspace files, and the result field naming the file written. */
const WRITING_TOOLS: ReadonlyMap<string, string> = new Map([
  ["opfs_write", "path"],
  ["screenshot", "saved_to"],
]);

function pathIn(content: string, field: string): string | null {
  try {
    const parsed = JSON.parse(content) as Record<string, unknown> | null;
    const path = parsed?.[field];
    if (!parsed || parsed.error || parsed.ok === false || typeof path !== "string") return null;
    return normalizePath(path);
  } catch {
    return null;
  }
}

/** The files one tool call wrote, from its name and its result text (empty for other tools). */
export function filesWritten(tool: string, content: string, isError = false): ToolResultFile[] {
  const field = WRITING_TOOLS.get(tool);
  if (isError || !field) return [];
  const path = pathIn(content, field);
  return path ? [{ path }] : [];
}

/** The normalised paths of the files written by the conversation's tool calls. */
export function writtenFiles(messages: Iterable<StoredMessage>): Set<string> {
  const writers = new Map<string, string>();
  const paths = new Set<string>();
  for (const { message } of messages) {
    if (message.role === "assistant")
      for (const call of message.tool_calls ?? []) writers.set(call.id, call.function.name);
    if (message.role === "tool") {
      const tool = writers.get(message.tool_call_id);
      const content = typeof message.content === "string" ? message.content : "";
      if (tool) for (const file of filesWritten(tool, content)) paths.add(file.path);
    }
  }
  return paths;
}
