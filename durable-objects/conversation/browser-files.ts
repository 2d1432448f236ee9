/**
 * The workspace side of files through a conversation's browser, lent to the fleet for one tool
 * call: what upload_file may read and where downloads are saved (`downloads/<name>`, made unique
 * with " (2)", " (3)" … before the extension) — over the conversation's own file layer, so a
 * widget visitor's reads and downloads stay inside `visitors/<visitor id>/`.
 */
import type { CaughtDownload, DownloadedFile } from "../engine/browser/downloads";
import { FilesError } from "../engine/files/files-error";
import type { FileOps } from "../engine/files/scoped-files";
import type { UploadRead } from "../engine/tools/browser-shared";

/** How many numbered names are tried before a download is refused. */
const MAX_NAME_TRIES = 100;

/** Reads a workspace file for upload_file, refusing a missing one or one over `maxBytes`. */
export function uploadReader(files: FileOps) {
  return async (path: string, maxBytes: number): Promise<UploadRead> => {
    const missing: UploadRead = {
      ok: false,
      code: "not_found",
      message: `No file at "${path}" in the workspace (see opfs_list).`,
    };
    try {
      const info = await files.stat(path);
      if (!info) return missing;
      if (info.size > maxBytes)
        return {
          ok: false,
          code: "file_too_large",
          message: `"${path}" is ${info.size} bytes; upload_file sends at most ${maxBytes}.`,
        };
      const body = await files.open(path);
      if (!body) return missing;
      return { ok: true, bytes: new Uint8Array(await body.arrayBuffer()), contentType: info.type };
    } catch (err) {
      if (err instanceof FilesError) return { ok: false, code: err.code, message: err.message };
      throw err;
    }
  };
}

/** The name with " (n)" before its extension. */
function numbered(name: string, n: number): string {
  const dot = name.lastIndexOf(".");
  return dot > 0 ? `${name.slice(0, dot)} (${n})${name.slice(dot)}` : `${name} (${n})`;
}

/** Saves a caught download under `downloads/` (a free name) and announces it; returns its path. */
export function downloadSaver(files: FileOps, announce: (file: DownloadedFile) => void) {
  return async (file: CaughtDownload): Promise<string> => {
    for (let n = 1; n <= MAX_NAME_TRIES; n++) {
      const path = `downloads/${n === 1 ? file.name : numbered(file.name, n)}`;
      if (await files.stat(path)) continue;
      const saved = await files.write(path, file.bytes, file.bytes.byteLength, file.contentType);
      announce({ path: saved.path, size: saved.size, content_type: file.contentType, url: file.url });
      return saved.path;
    }
    throw new Error(`downloads/ already holds ${MAX_NAME_TRIES} files named like ${file.name}`);
  };
}
