/**
 * Saves tool results too large for the model's context to the workspace, so the model gets
 * the beginning plus a path to read the rest with opfs_read.
 */
import type { WorkspaceFiles } from "./workspace-files";

/** Folder of saved results: `.cirrus/results/<conversation>/<toolCallId>.txt`. */
export const RESULTS_DIR = ".cirrus/results";

/** Where a tool runner can save a whole result. */
export interface ResultSpill {
  /** Saves `text` for a tool call and returns its workspace path. */
  save(conversationId: string, toolCallId: string, text: string): Promise<string>;
}

const safeName = (s: string) => s.replace(/[^A-Za-z0-9_-]/g, "_").slice(0, 100) || "result";

/** The name of a conversation's own folder under {@link RESULTS_DIR}. */
export const resultsFolderName = (conversationId: string): string => safeName(conversationId);

/**
 * The one workspace path where the whole result of a tool call is kept once it has been saved
 * (spilled for being over the result budget, or cleared from the model's context): see docs/context.md.
 */
export function savedResultPath(conversationId: string, toolCallId: string): string {
  return `${RESULTS_DIR}/${safeName(conversationId)}/${safeName(toolCallId)}.txt`;
}

/** A spill that writes into the workspace's files (or a conversation's scope of them). */
export function createResultSpill(files: Pick<WorkspaceFiles, "write">): ResultSpill {
  return {
    async save(conversationId, toolCallId, text) {
      const path = savedResultPath(conversationId, toolCallId);
      const bytes = new TextEncoder().encode(text);
      // The path written, which a scope (a visitor's folder) may have placed elsewhere.
      return (await files.write(path, bytes, bytes.length, "text/plain; charset=utf-8")).path;
    },
  };
}
