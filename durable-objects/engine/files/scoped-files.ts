/**
 * The workspace files as one conversation's tools see them. Every conversation reads only its own
 * saved results (`.cirrus/results/<conversation>/`), never another's; a widget visitor's
 * conversation is also confined to its visitor's folder (`visitors/<visitor id>/`): a path is
 * normalised first (no `..`, no backslashes, no control characters), then placed under that
 * folder unless it already is, so no spelling — absolute, `..`, percent-encoded — leads out.
 */
import type { FileList } from "../../../schemas/files";
import { FilesError } from "./files-error";
import { normalizePath } from "./paths";
import { RESULTS_DIR, resultsFolderName } from "./result-spill";
import type { WorkspaceFiles } from "./workspace-files";

/** The file operations the tools, the result spill and the screenshots use. */
export type FileOps = Pick<WorkspaceFiles, "write" | "writeUnsized" | "stat" | "open" | "list" | "remove">;

/** Where one conversation's file operations may reach. */
export interface FileScope {
  conversationId: string;
  /** A visitor's folder every path is placed under (`visitors/<visitor id>`); null = the workspace root. */
  root: string | null;
}

/** The folder a widget visitor's files live in. */
export const visitorFolder = (visitorId: string): string => `visitors/${visitorId}`;

const [RESULTS_TOP, RESULTS_SUB] = RESULTS_DIR.split("/");

/** Refuses a path inside (or listing) the saved results of another conversation. */
function guardResults(path: string, conversationId: string, op: "read" | "list" | "write" | "remove"): void {
  const parts = path.split("/");
  const own = resultsFolderName(conversationId);
  if (op === "remove" && parts.at(-1) === RESULTS_TOP)
    throw privateResults(path, own, "it holds the saved results of every conversation");
  for (let i = 0; i + 1 < parts.length; i++) {
    if (parts[i] !== RESULTS_TOP || parts[i + 1] !== RESULTS_SUB) continue;
    const owner = parts[i + 2];
    if (owner === undefined)
      throw privateResults(path, own, "it holds the saved results of every conversation");
    if (owner !== own) throw privateResults(path, own, "it holds another conversation's saved results");
  }
}

function privateResults(path: string, own: string, why: string): FilesError {
  return new FilesError(
    "results_private",
    `"${path}" is not available here: ${why}. This conversation reads only its own, under ${RESULTS_DIR}/${own}/.`,
  );
}

/** The file operations of one conversation: its results guarded and, for a visitor, its folder enforced. */
export function scopedFiles(files: FileOps, scope: FileScope): FileOps {
  const place = (raw: string, op: "read" | "list" | "write" | "remove", allowRoot = false): string => {
    const rel = normalizePath(raw, { allowRoot });
    const full = within(scope.root, rel);
    guardResults(full, scope.conversationId, op);
    return full;
  };
  return {
    write: (path, body, size, type) => files.write(place(path, "write"), body, size, type),
    writeUnsized: (path, body, type) => files.writeUnsized(place(path, "write"), body, type),
    stat: (path) => files.stat(place(path, "read")),
    open: (path, range) => files.open(place(path, "read"), range),
    remove: (path) => files.remove(place(path, "remove")),
    list: async (path = "", cursor, max) => {
      const dir = place(path, "list", true);
      try {
        return await files.list(dir, cursor, max);
      } catch (err) {
        // A visitor's folder before its first file is an empty folder, not a missing one.
        if (err instanceof FilesError && err.code === "not_found" && dir === scope.root) return empty(dir);
        throw err;
      }
    },
  };
}

/** A normalised path placed under `root` (unless it already is there); "" is the root itself. */
function within(root: string | null, rel: string): string {
  if (!root) return rel;
  if (rel === "") return root;
  return rel === root || rel.startsWith(`${root}/`) ? rel : `${root}/${rel}`;
}

const empty = (path: string): FileList => ({ path, entries: [], truncated: false, next_cursor: null });
