/**
 * A workspace's files in R2, under the key prefix `ws/<workspaceId>/`: every path is
 * normalised before it becomes a key, so no operation can reach outside the workspace.
 * Sizes and quota go through the workspace object's ledger.
 */
import {
  type FileDeleted,
  type FileEntry,
  type FileInfo,
  type FileList,
  MAX_LIST_ENTRIES,
} from "../../../schemas/files";
import { OCTET_STREAM } from "./content-types";
import type { DirStats, FileLimits, Reservation } from "./file-ledger";
import { FilesError } from "./files-error";
import { baseName, normalizePath, workspacePrefix } from "./paths";

/** Part size of multipart uploads (R2 wants equal parts of at least 5 MiB). */
export const PART_BYTES = 8 * 1024 * 1024;
const DELETE_BATCH = 1000;

/** The ledger calls the file layer makes (the workspace object's RPC methods). */
export interface FileLedgerOps {
  fileReserve(path: string, size: number | "max", limits: FileLimits): Promise<Reservation> | Reservation;
  fileCommit(reservationId: string, size: number, modified: number): Promise<void> | void;
  fileRelease(reservationId: string): Promise<void> | void;
  fileForget(path: string): Promise<number> | number;
  fileDirStats(dirs: string[]): Promise<DirStats[]> | DirStats[];
}

/** Body of a write whose length is known up front. */
export type KnownBody = string | Uint8Array | ReadableStream<Uint8Array>;

const info = (path: string, o: R2Object): FileInfo => ({
  path,
  size: o.size,
  type: o.httpMetadata?.contentType ?? OCTET_STREAM,
  modified: o.uploaded.getTime(),
});

/** File operations of one workspace. */
export class WorkspaceFiles {
  private readonly prefix: string;

  constructor(
    private readonly bucket: R2Bucket,
    workspaceId: string,
    private readonly ledger: FileLedgerOps,
    readonly limits: FileLimits,
  ) {
    this.prefix = workspacePrefix(workspaceId);
  }

  /** Writes a file of `size` bytes (a stream must deliver exactly that many). */
  async write(
    rawPath: string,
    body: KnownBody,
    size: number,
    type: string,
  ): Promise<FileInfo & { created: boolean }> {
    const path = normalizePath(rawPath);
    const res = await this.reserve(path, size);
    try {
      const value = body instanceof ReadableStream ? body.pipeThrough(new FixedLengthStream(size)) : body;
      const stored = await this.bucket.put(this.key(path), value, { httpMetadata: { contentType: type } });
      await this.ledger.fileCommit(res.id, stored.size, stored.uploaded.getTime());
      return { ...info(path, stored), created: !res.existed };
    } catch (err) {
      await this.ledger.fileRelease(res.id);
      throw err;
    }
  }

  /** Writes a stream of unknown length as a multipart upload, refusing it past the per-file limit. */
  async writeUnsized(
    rawPath: string,
    body: ReadableStream<Uint8Array>,
    type: string,
  ): Promise<FileInfo & { created: boolean }> {
    const path = normalizePath(rawPath);
    const res = await this.reserve(path, "max");
    const upload = await this.bucket.createMultipartUpload(this.key(path), {
      httpMetadata: { contentType: type },
    });
    try {
      const parts: R2UploadedPart[] = [];
      let total = 0;
      for await (const part of partsOf(body, PART_BYTES)) {
        total += part.length;
        if (total > res.bytes) throw this.overflow(res.bytes);
        parts.push(await upload.uploadPart(parts.length + 1, part));
      }
      if (parts.length === 0) parts.push(await upload.uploadPart(1, new Uint8Array()));
      const stored = await upload.complete(parts);
      await this.ledger.fileCommit(res.id, stored.size, stored.uploaded.getTime());
      return { ...info(path, stored), created: !res.existed };
    } catch (err) {
      await upload.abort().catch(() => {});
      await this.ledger.fileRelease(res.id);
      throw err;
    }
  }

  /** The file at a path, or null (folders are not files). */
  async stat(rawPath: string): Promise<FileInfo | null> {
    const path = normalizePath(rawPath);
    const head = await this.bucket.head(this.key(path));
    return head ? info(path, head) : null;
  }

  /** A file's body, whole or a byte range; null when there is no such file. */
  async open(rawPath: string, range?: { offset: number; length: number }): Promise<R2ObjectBody | null> {
    return this.bucket.get(this.key(normalizePath(rawPath)), range ? { range } : undefined);
  }

  /**
   * The entries of a folder ("" or "/" is the root), at most `max` at a time: a longer folder is
   * `truncated`, with a `next_cursor` that lists its next entries.
   */
  async list(rawPath = "", startCursor?: string, max = MAX_LIST_ENTRIES): Promise<FileList> {
    const dir = normalizePath(rawPath, { allowRoot: true });
    let cursor = startCursor === undefined ? undefined : readCursor(startCursor, dir);
    if (dir !== "" && (await this.bucket.head(this.key(dir)))) {
      throw new FilesError("not_a_directory", `"${dir}" is a file, not a folder. Read it with opfs_read.`);
    }
    const prefix = dir === "" ? this.prefix : `${this.key(dir)}/`;
    const files: FileEntry[] = [];
    const dirNames: string[] = [];
    const seen = () => files.length + dirNames.length;
    do {
      const limit = Math.min(1000, max - seen());
      const page = await this.bucket.list({ prefix, delimiter: "/", cursor, limit });
      for (const o of page.objects)
        files.push({ name: baseName(o.key), kind: "file", size: o.size, modified: o.uploaded.getTime() });
      for (const p of page.delimitedPrefixes) dirNames.push(p.slice(prefix.length, -1));
      cursor = page.truncated ? page.cursor : undefined;
    } while (cursor && seen() < max);
    if (dir !== "" && startCursor === undefined && seen() === 0) {
      throw new FilesError(
        "not_found",
        `There is no folder "${dir}". Call opfs_list on its parent to see what exists.`,
      );
    }
    const stats = await this.ledger.fileDirStats(dirNames.map((n) => (dir ? `${dir}/${n}` : n)));
    const dirs: FileEntry[] = dirNames.map((name, i) => ({ name, kind: "directory", ...stats[i] }));
    const entries = [...dirs, ...files].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const next = cursor === undefined ? null : writeCursor(cursor, dir);
    return { path: dir, entries, truncated: next !== null, next_cursor: next };
  }

  /** Deletes a file, or a folder with everything under it. */
  async remove(rawPath: string): Promise<FileDeleted> {
    const path = normalizePath(rawPath);
    const isFile = (await this.bucket.head(this.key(path))) !== null;
    let count = 0;
    if (isFile) {
      await this.bucket.delete(this.key(path));
      count = 1;
    } else {
      count = await this.deleteUnder(`${this.key(path)}/`);
    }
    if (count === 0) throw new FilesError("not_found", `There is no file or folder "${path}".`);
    await this.ledger.fileForget(path);
    return { path, kind: isFile ? "file" : "directory", deleted: true, files: count };
  }

  private async deleteUnder(prefix: string): Promise<number> {
    let count = 0;
    for (;;) {
      const page = await this.bucket.list({ prefix, limit: DELETE_BATCH });
      if (page.objects.length === 0) return count;
      await this.bucket.delete(page.objects.map((o) => o.key));
      count += page.objects.length;
    }
  }

  /** The error for an upload of unknown length that grew past the room reserved for it. */
  private overflow(reserved: number): FilesError {
    return reserved >= this.limits.maxFileBytes
      ? new FilesError(
          "file_too_large",
          `The upload passed the limit of ${this.limits.maxFileBytes} bytes per file.`,
        )
      : new FilesError(
          "quota_exceeded",
          `The upload passed the ${reserved} bytes the workspace has room for.`,
        );
  }

  private async reserve(path: string, size: number | "max"): Promise<Extract<Reservation, { ok: true }>> {
    const res = await this.ledger.fileReserve(path, size, this.limits);
    if (!res.ok) throw new FilesError(res.code, res.message);
    return res;
  }

  private key(path: string): string {
    return this.prefix + path;
  }
}

/** Re-chunks a byte stream into parts of exactly `size` bytes (the last may be shorter). */
export async function* partsOf(body: ReadableStream<Uint8Array>, size: number): AsyncGenerator<Uint8Array> {
  let buf = new Uint8Array(size);
  let filled = 0;
  for await (const chunk of body) {
    let at = 0;
    while (at < chunk.length) {
      const n = Math.min(size - filled, chunk.length - at);
      buf.set(chunk.subarray(at, at + n), filled);
      filled += n;
      at += n;
      if (filled === size) {
        yield buf;
        buf = new Uint8Array(size);
        filled = 0;
      }
    }
  }
  if (filled > 0) yield buf.subarray(0, filled);
}

/** A listing cursor: R2's cursor with the folder it lists, so it cannot continue another folder. */
function writeCursor(r2Cursor: string, dir: string): string {
  const bytes = new TextEncoder().encode(JSON.stringify({ d: dir, c: r2Cursor }));
  return btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, "-")
    .replace(/\//g, "_")
    .replace(/=+$/, "");
}

/** R2's cursor from a listing cursor of `dir`; an invalid_cursor error for anything else. */
function readCursor(cursor: string, dir: string): string {
  try {
    const binary = atob(cursor.replace(/-/g, "+").replace(/_/g, "/"));
    const parsed = JSON.parse(new TextDecoder().decode(Uint8Array.from(binary, (ch) => ch.charCodeAt(0))));
    if (parsed?.d === dir && typeof parsed.c === "string" && parsed.c !== "") return parsed.c;
  } catch {
    // not one of ours: refused below
  }
  throw new FilesError("invalid_cursor", `The cursor is not a next_cursor of a listing of "${dir || "/"}".`);
}
