/**
 * Workspace files: one zod schema per concept, shared by the opfs_* tools, the files API and
 * the OpenAPI document.
 */
import { z } from "@hono/zod-openapi";

/** A workspace path as callers give it. */
export const FilePath = z
  .string()
  .max(1000)
  .describe('A "/"-separated path from the workspace root, e.g. "reports/2026-11.md". Case-sensitive.');

/** A stored file. */
export const FileInfo = z
  .object({
    path: z.string().describe("The normalised path."),
    size: z.number().int().describe("Size in bytes."),
    type: z.string().describe("Content type, e.g. text/plain; charset=utf-8 or image/png."),
    modified: z.number().describe("Last change, epoch milliseconds."),
  })
  .openapi("FileInfo");
export type FileInfo = z.infer<typeof FileInfo>;

/** One entry of a folder listing. */
export const FileEntry = z
  .object({
    name: z.string().describe("The entry's name inside the folder."),
    kind: z.enum(["file", "directory"]),
    size: z.number().int().describe("Bytes; for a folder, the total of everything under it."),
    modified: z
      .number()
      .nullable()
      .describe("Last change, epoch milliseconds (newest inside, for a folder)."),
  })
  .openapi("FileEntry");
export type FileEntry = z.infer<typeof FileEntry>;

/** A folder listing. */
export const FileList = z
  .object({
    path: z.string().describe('The folder listed ("" is the root).'),
    entries: z.array(FileEntry),
    truncated: z.boolean().describe("The folder has more entries than one listing returns."),
    next_cursor: z
      .string()
      .nullable()
      .describe("When truncated, pass as `cursor` to list the folder's next entries; otherwise null."),
  })
  .openapi("FileList");
export type FileList = z.infer<typeof FileList>;

/** What deleting a file or folder removed. */
export const FileDeleted = z
  .object({
    path: z.string(),
    kind: z.enum(["file", "directory"]),
    deleted: z.literal(true),
    files: z.number().int().describe("How many files were removed."),
  })
  .openapi("FileDeleted");
export type FileDeleted = z.infer<typeof FileDeleted>;

/** The `?path=` of a listing. */
/** Entries one folder listing returns at most. */
export const MAX_LIST_ENTRIES = 5000;

/** A listing's `next_cursor`, passed back to list the rest of a folder. */
export const ListCursor = z
  .string()
  .min(1)
  .max(2000)
  .describe("The `next_cursor` of a truncated listing of the same folder.");

export const ListFilesQuery = z.object({
  path: FilePath.default("").openapi({ param: { name: "path", in: "query" }, example: "reports" }),
  cursor: ListCursor.optional().openapi({ param: { name: "cursor", in: "query" } }),
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(MAX_LIST_ENTRIES)
    .default(MAX_LIST_ENTRIES)
    .describe(
      `Entries per listing (1–${MAX_LIST_ENTRIES}); a longer folder is truncated with a next_cursor.`,
    ),
});
