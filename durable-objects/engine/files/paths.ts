/**
 * Workspace file paths: `/`-separated, case-sensitive, relative to the workspace root.
 * Normalising refuses anything that could escape the root or confuse a key (`..`, empty
 * segments, control characters, backslashes, over-long names) with an error the model can read.
 */
import { FilesError } from "./files-error";

/** Longest name of one file or folder, in UTF-8 bytes (as common file systems allow). */
export const MAX_NAME_BYTES = 255;
/** Longest whole path, in UTF-8 bytes; keeps `ws/<workspace>/<path>` under R2's 1024-byte key limit. */
export const MAX_PATH_BYTES = 900;
/** Deepest nesting of folders. */
export const MAX_DEPTH = 32;

// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it refuses.
const CONTROL_CHARS = /[\u0000-\u001f\u007f-\u009f]/;

const bytes = (s: string) => new TextEncoder().encode(s).length;
const fail = (raw: string, why: string): never => {
  throw new FilesError("invalid_path", `Invalid path ${JSON.stringify(raw.slice(0, 200))}: ${why}`);
};

/**
 * Normalises a path: one leading and one trailing `/` are optional, `.` segments are dropped.
 * Returns "" for the root, which only `allowRoot` accepts.
 */
export function normalizePath(raw: string, opts: { allowRoot?: boolean } = {}): string {
  if (CONTROL_CHARS.test(raw)) fail(raw, "control characters are not allowed.");
  if (raw.includes("\\")) fail(raw, 'use "/" to separate folders; "\\" is not allowed.');
  let p = raw.trim() === raw ? raw : fail(raw, "leading or trailing spaces are not allowed.");
  if (p.startsWith("/")) p = p.slice(1);
  if (p.endsWith("/")) p = p.slice(0, -1);
  if (p === "" || p === ".") {
    if (opts.allowRoot) return "";
    fail(raw, "a file path is needed, not the root folder.");
  }
  const segments = p.split("/").filter((s) => s !== ".");
  for (const s of segments) {
    if (s === "") fail(raw, 'empty folder names ("//") are not allowed.');
    if (s === "..") fail(raw, '".." is not allowed; paths are relative to the workspace root.');
    if (bytes(s) > MAX_NAME_BYTES) fail(raw, `a name is longer than ${MAX_NAME_BYTES} bytes.`);
  }
  if (segments.length === 0) return opts.allowRoot ? "" : fail(raw, "a file path is needed.");
  if (segments.length > MAX_DEPTH) fail(raw, `folders nest deeper than ${MAX_DEPTH} levels.`);
  const out = segments.join("/");
  if (bytes(out) > MAX_PATH_BYTES) fail(raw, `the path is longer than ${MAX_PATH_BYTES} bytes.`);
  return out;
}

/** The folders above a normalised path, outermost first: `a/b/c` → `a`, `a/b`. */
export function ancestors(path: string): string[] {
  const parts = path.split("/");
  return parts.slice(0, -1).map((_, i) => parts.slice(0, i + 1).join("/"));
}

/** The last segment of a path. */
export function baseName(path: string): string {
  return path.slice(path.lastIndexOf("/") + 1);
}

/** The R2 key prefix of a workspace: nothing outside it is ever read, listed or deleted. */
export function workspacePrefix(workspaceId: string): string {
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(workspaceId)) throw new Error(`bad workspace id ${workspaceId}`);
  return `ws/${workspaceId}/`;
}
