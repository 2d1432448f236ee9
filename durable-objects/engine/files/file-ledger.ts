/**
 * The size ledger of a workspace's files, kept in the workspace object's SQLite. Because one
 * Durable Object handles calls one at a time, a reservation here is atomic: concurrent writes
 * cannot together pass the workspace quota, and a file cannot be written where a folder is.
 */
import { ancestors } from "./paths";

/** A reservation left behind by a crashed write stops counting after this long. */
export const RESERVATION_TTL_MS = 60 * 60 * 1000;

/** The limits a reservation is checked against. */
export interface FileLimits {
  maxFileBytes: number;
  maxWorkspaceBytes: number;
}

/** The answer to a reservation request. */
export type Reservation =
  | { ok: true; id: string; bytes: number; existed: boolean }
  | {
      ok: false;
      code: "file_too_large" | "quota_exceeded" | "is_a_directory" | "not_a_directory";
      message: string;
    };

/** Size and newest change of everything under a folder. */
export interface DirStats {
  size: number;
  modified: number | null;
}

/** The range of paths strictly under folder `dir` ("" is the root). */
const under = (dir: string): [string, string] => (dir === "" ? ["", "\u{10ffff}"] : [`${dir}/`, `${dir}0`]);

/** Creates the file ledger and reservation tables: the object's schema steps call it. */
export function createFileLedgerTables(sql: SqlStorage): void {
  sql.exec(`CREATE TABLE IF NOT EXISTS files (path TEXT PRIMARY KEY, size INTEGER NOT NULL, modified INTEGER NOT NULL);
    CREATE TABLE IF NOT EXISTS file_reservations (id TEXT PRIMARY KEY, path TEXT NOT NULL,
      size INTEGER NOT NULL, expires_at INTEGER NOT NULL);`);
}

/** The ledger over a SqlStorage. */
export class FileLedger {
  constructor(private readonly sql: SqlStorage) {}

  /**
   * Reserves room for `size` bytes at `path`, or says why not. `"max"` (a stream of unknown
   * length) reserves as much as one file may take and the workspace has room for.
   */
  reserve(path: string, size: number | "max", limits: FileLimits): Reservation {
    this.sql.exec("DELETE FROM file_reservations WHERE expires_at < ?", Date.now());
    if (size !== "max" && size > limits.maxFileBytes) {
      return refuse(
        "file_too_large",
        `The file is ${size} bytes; the limit per file is ${limits.maxFileBytes}.`,
      );
    }
    const conflict = this.conflict(path);
    if (conflict) return conflict;
    const old = this.count("SELECT COALESCE(MAX(size), -1) AS n FROM files WHERE path = ?", path);
    const used = this.usage().bytes + this.count("SELECT COALESCE(SUM(size), 0) AS n FROM file_reservations");
    const room = limits.maxWorkspaceBytes - used + Math.max(old, 0);
    const bytes = size === "max" ? Math.min(limits.maxFileBytes, room) : size;
    if (bytes > room || room <= 0) {
      return refuse(
        "quota_exceeded",
        `The workspace has room for ${Math.max(room, 0)} more bytes${size === "max" ? "" : `, not ${size}`}; its limit is ${limits.maxWorkspaceBytes}. Delete files first.`,
      );
    }
    const id = crypto.randomUUID();
    this.sql.exec(
      "INSERT INTO file_reservations (id, path, size, expires_at) VALUES (?, ?, ?, ?)",
      id,
      path,
      bytes,
      Date.now() + RESERVATION_TTL_MS,
    );
    return { ok: true, id, bytes, existed: old >= 0 };
  }

  /** Why `path` cannot be a file: a folder is there, or one of its parents is a file. */
  private conflict(path: string): Reservation | null {
    const [lo, hi] = under(path);
    const children =
      this.count("SELECT COUNT(*) AS n FROM files WHERE path > ? AND path < ?", lo, hi) +
      this.count("SELECT COUNT(*) AS n FROM file_reservations WHERE path > ? AND path < ?", lo, hi);
    if (children > 0) {
      return refuse(
        "is_a_directory",
        `"${path}" is a folder; choose another name or delete the folder first.`,
      );
    }
    for (const dir of ancestors(path)) {
      const n =
        this.count("SELECT COUNT(*) AS n FROM files WHERE path = ?", dir) +
        this.count("SELECT COUNT(*) AS n FROM file_reservations WHERE path = ?", dir);
      if (n > 0) return refuse("not_a_directory", `"${dir}" is a file, so it cannot hold "${path}".`);
    }
    return null;
  }

  /** Records a finished write under its reservation (with the size actually stored). */
  commit(id: string, size: number, modified: number): void {
    const row = this.sql
      .exec<{ path: string }>("SELECT path FROM file_reservations WHERE id = ?", id)
      .toArray()[0];
    this.sql.exec("DELETE FROM file_reservations WHERE id = ?", id);
    if (!row) return;
    this.sql.exec(
      "INSERT OR REPLACE INTO files (path, size, modified) VALUES (?, ?, ?)",
      row.path,
      size,
      modified,
    );
  }

  /** Drops a reservation whose write failed. */
  release(id: string): void {
    this.sql.exec("DELETE FROM file_reservations WHERE id = ?", id);
  }

  /** Forgets a file and everything under it as a folder; returns how many entries went. */
  forget(path: string): number {
    const [lo, hi] = under(path);
    return (
      this.sql.exec("DELETE FROM files WHERE path = ?", path).rowsWritten +
      this.sql.exec("DELETE FROM files WHERE path > ? AND path < ?", lo, hi).rowsWritten
    );
  }

  /** Size and newest change under each folder. */
  dirStats(dirs: string[]): DirStats[] {
    return dirs.map((dir) => {
      const [lo, hi] = under(dir);
      const row = this.sql
        .exec<{ size: number; modified: number | null }>(
          "SELECT COALESCE(SUM(size), 0) AS size, MAX(modified) AS modified FROM files WHERE path > ? AND path < ?",
          lo,
          hi,
        )
        .toArray()[0];
      return { size: row?.size ?? 0, modified: row?.modified ?? null };
    });
  }

  /** Bytes and files the workspace holds. */
  usage(): { bytes: number; files: number } {
    const row = this.sql
      .exec<{ bytes: number; files: number }>(
        "SELECT COALESCE(SUM(size), 0) AS bytes, COUNT(*) AS files FROM files",
      )
      .toArray()[0];
    return { bytes: row?.bytes ?? 0, files: row?.files ?? 0 };
  }

  private count(query: string, ...params: unknown[]): number {
    return Number(this.sql.exec<{ n: number }>(query, ...params).toArray()[0]?.n ?? 0);
  }
}

function refuse(code: Extract<Reservation, { ok: false }>["code"], message: string): Reservation {
  return { ok: false, code, message };
}
