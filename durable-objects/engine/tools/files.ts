/** The workspace file tools: opfs_write, opfs_read, opfs_list, opfs_delete. */

import { z } from "zod";
import { type FileInfo, ListCursor, MAX_LIST_ENTRIES } from "../../../schemas/files";
import { missingKey } from "../config/keys-config";
import { isTextType, looksLikeText, OCTET_STREAM, SNIFF_BYTES, typeForName } from "../files/content-types";
import { parseDataUrl } from "../files/data-url";
import { readDocumentText } from "../files/document-text";
import { FilesError } from "../files/files-error";
import type { FileLinks } from "../files/signed-links";
import { readTextWindow } from "../files/text-window";
import type { WorkspaceFiles } from "../files/workspace-files";
import { defineTool, type Tool } from "./tool";

/** Lines opfs_read returns when no `limit` is given; longer texts must be paged. */
export const DEFAULT_READ_LINES = 200;
/** Most lines one opfs_read may ask for. */
export const MAX_READ_LINES = 100_000;

/** What the file tools need: the workspace's files and a way to make signed links. */
export interface FilesToolDeps {
  files: Pick<WorkspaceFiles, "write" | "stat" | "open" | "list" | "remove">;
  /** Null when no signing secret is configured: blob reads then fail with a clear error. */
  links: FileLinks | null;
  /** A widget visitor's conversation: every path is placed in the visitor's own folder (said in opfs_write's description). */
  confined?: boolean;
}

const Path = z.string().min(1).max(1000);

/** Arguments of opfs_write. */
export const WriteArgs = z.object({
  path: Path.describe('File path from the workspace root, e.g. "notes/todo.md". Parent folders are created.'),
  content: z.string().describe("File content: text, or binary as a data URL (data:<mime>;base64,<data>)."),
});
/** Arguments of opfs_read. */
export const ReadArgs = z.object({
  path: Path.describe("File path from the workspace root."),
  mode: z
    .enum(["auto", "text", "blob"])
    .default("auto")
    .describe(
      '"auto" (default): text files return text, binary files a URL; "text" forces text; "blob" returns a URL.',
    ),
  offset: z.number().int().min(1).optional().describe("First line to return (1-based), text only."),
  limit: z
    .number()
    .int()
    .min(1)
    .max(MAX_READ_LINES)
    .optional()
    .describe(`Number of lines to return, text only. Texts over ${DEFAULT_READ_LINES} lines must be paged.`),
});
/** Arguments of opfs_list. */
export const ListArgs = z.object({
  path: z.string().max(1000).default("/").describe("Folder path; defaults to the root folder."),
  cursor: ListCursor.optional(),
});
/** Arguments of opfs_delete. */
export const DeleteArgs = z.object({
  path: Path.describe("File or folder path; a folder is deleted with everything in it."),
});

/** Creates the file tools over a workspace's files. */
export function createFileTools(deps: FilesToolDeps): Tool[] {
  const { files } = deps;
  return [
    defineTool({
      name: "opfs_write",
      description: deps.confined
        ? "Write a file to your own folder of the workspace (every path is placed there; nobody else's files are reachable). Text as is; binary as a data URL. Replaces an existing file."
        : "Write a file to the workspace (shared by all conversations and jobs of the workspace). Text as is; binary as a data URL. Replaces an existing file.",
      parameters: WriteArgs,
      execute: async ({ path, content }) => {
        const data = parseDataUrl(content);
        const bytes = data?.bytes ?? new TextEncoder().encode(content);
        const type = data?.type ?? typeForName(path);
        const written = await files.write(path, bytes, bytes.length, type);
        return { path: written.path, size: written.size, type: written.type };
      },
    }),
    defineTool({
      name: "opfs_read",
      description: `Read a workspace file. Text files return their lines (at most ${DEFAULT_READ_LINES} unless you pass limit; page with offset); binary files return a short-lived URL usable from a browser tab.`,
      parameters: ReadArgs,
      execute: (args) => readFile(deps, args),
    }),
    defineTool({
      name: "opfs_list",
      description: `List a workspace folder: name, kind (file/directory), size in bytes and modified time (epoch ms). A folder of more than ${MAX_LIST_ENTRIES} entries comes back truncated with a next_cursor: pass it as cursor for the rest.`,
      parameters: ListArgs,
      execute: ({ path, cursor }) => files.list(path, cursor),
    }),
    defineTool({
      name: "opfs_delete",
      description: "Delete a workspace file, or a folder with everything under it.",
      parameters: DeleteArgs,
      execute: ({ path }) => files.remove(path),
    }),
  ];
}

async function readFile(deps: FilesToolDeps, args: z.infer<typeof ReadArgs>) {
  const file = await deps.files.stat(args.path);
  if (!file) throw await missingFile(deps, args.path);
  const asText = args.mode === "text" || (args.mode === "auto" && (await isText(deps, file)));
  const base = { path: file.path, type: file.type, size: file.size };
  if (!asText) {
    if (!deps.links) throw missingKey("FILES_SIGNING_SECRET", "file links");
    return { ...base, mode: "blob" as const, ...(await deps.links.link(file.path)) };
  }
  const offset = args.offset ?? 1;
  const limit = args.limit ?? DEFAULT_READ_LINES;
  const doc = await readDocumentText(deps.files, file);
  const body = doc ? null : await deps.files.open(file.path);
  if (!doc && !body) throw new FilesError("not_found", `"${file.path}" was deleted while being read.`);
  const stream = doc ? new Blob([doc.text]).stream() : body!.body;
  const win = await readTextWindow(stream, offset, limit);
  const end = offset + win.lines - 1;
  const more = end < win.totalLines;
  const result = {
    ...base,
    mode: "text" as const,
    content: win.text,
    offset,
    lines: win.lines,
    total_lines: win.totalLines,
    next_offset: more ? end + 1 : null,
    ...(doc?.pages !== undefined && { pages: doc.pages }),
    ...(doc?.title && { title: doc.title }),
  };
  if (win.lines === 0 && win.totalLines > 0) {
    return { ...result, note: `The file has ${win.totalLines} lines; offset ${offset} is past its end.` };
  }
  if (!more && !win.cut) return result;
  const next = JSON.stringify({
    path: file.path,
    offset: end + 1,
    limit: Math.min(limit, DEFAULT_READ_LINES),
  });
  return {
    ...result,
    note: `Showing lines ${offset}-${end} of ${win.totalLines}${win.cut ? " (cut: the lines are very long)" : ""}. To read on, call opfs_read with ${next}.`,
  };
}

/** The error for reading a path that is not a file: a folder, or nothing. */
async function missingFile(deps: FilesToolDeps, path: string): Promise<FilesError> {
  const folder = await deps.files.list(path).catch(() => null);
  return folder
    ? new FilesError("is_a_directory", `"${folder.path}" is a folder; call opfs_list to see its files.`)
    : new FilesError("not_found", `There is no file "${path}". Call opfs_list to see what exists.`);
}

async function isText(deps: FilesToolDeps, file: FileInfo): Promise<boolean> {
  if (isTextType(file.type) || file.size === 0) return true;
  if (file.type.split(";")[0].trim() !== OCTET_STREAM) return false;
  const head = await deps.files.open(file.path, { offset: 0, length: Math.min(SNIFF_BYTES, file.size) });
  if (!head) return false;
  return looksLikeText(new Uint8Array(await head.arrayBuffer()));
}
