/**
 * What a conversation's runs read, in its SQLite: one row per web_fetch, get_tab_content or
 * open_tab call (sub-agents' included), with the requested and the final URL and the text read
 * kept only as shingle hashes (text-match.ts) — never the page itself. Citations are checked
 * against these rows.
 */
import type { PageRead } from "./citations";
import { pageShingles } from "./text-match";

/** Reads per run whose text is kept; later reads keep their URLs only (documented in docs/research.md). */
export const MAX_TEXT_READS_PER_RUN = 300;
/** Sources listed to the grader at most (the rest are counted). */
export const MAX_LISTED_SOURCES = 200;

interface ReadRow extends Record<string, SqlStorageValue> {
  url: string | null;
  final_url: string | null;
  hashes: ArrayBuffer | null;
}

/** One page read, as a tool reports it. */
export interface ReadRecord {
  tool: string;
  url: string | null;
  finalUrl: string | null;
  /** The text the run got; null when the tool opened the page without reading it. */
  text: string | null;
}

/** Creates the read log's table (the conversation's schema step 2). */
export function createReadTables(sql: SqlStorage): void {
  sql.exec(`CREATE TABLE IF NOT EXISTS run_reads (
    id INTEGER PRIMARY KEY AUTOINCREMENT, run_id TEXT NOT NULL, tool TEXT NOT NULL, url TEXT, final_url TEXT,
    hashes BLOB, words INTEGER NOT NULL DEFAULT 0, cut INTEGER NOT NULL DEFAULT 0, at INTEGER NOT NULL);
    CREATE INDEX IF NOT EXISTS run_reads_run ON run_reads (run_id)`);
}

/** The read log of one conversation. */
export class ReadLog {
  constructor(private readonly sql: SqlStorage) {}

  /** Records one read of a run. */
  record(runId: string, read: ReadRecord): void {
    if (!read.url && !read.finalUrl) return;
    const withText =
      read.text !== null &&
      this.sql
        .exec<{ n: number }>(
          "SELECT COUNT(*) AS n FROM run_reads WHERE run_id = ? AND hashes IS NOT NULL",
          runId,
        )
        .one().n < MAX_TEXT_READS_PER_RUN;
    const page = withText ? pageShingles(read.text!) : null;
    this.sql.exec(
      "INSERT INTO run_reads (run_id, tool, url, final_url, hashes, words, cut, at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
      runId,
      read.tool,
      read.url,
      read.finalUrl,
      page ? (page.hashes.buffer as ArrayBuffer) : null,
      page?.words ?? 0,
      page?.cut ? 1 : 0,
      Date.now(),
    );
  }

  /**
   * Every page the conversation's runs read up to now: a run's answer may cite what an earlier
   * run of the same conversation read (its text is in the conversation's context).
   */
  pages(): PageRead[] {
    return this.sql
      .exec<ReadRow>("SELECT url, final_url, hashes FROM run_reads ORDER BY id")
      .toArray()
      .map((r) => ({
        url: r.url,
        final_url: r.final_url,
        hashes: r.hashes ? new Uint32Array(r.hashes.slice(0)) : null,
      }));
  }

  /** The distinct URLs read (final URL when known), oldest first, at most `limit`; and how many in all. */
  sources(limit = MAX_LISTED_SOURCES): { urls: string[]; total: number } {
    const rows = this.sql
      .exec<{ u: string }>("SELECT COALESCE(final_url, url) AS u FROM run_reads GROUP BY u ORDER BY MIN(id)")
      .toArray();
    return { urls: rows.slice(0, limit).map((r) => r.u), total: rows.length };
  }
}
