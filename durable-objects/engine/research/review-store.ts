/**
 * Per run, in the conversation's SQLite: the research options its message set (each overrides
 * the conversation's), how many times it was sent back, and the review its result ended with.
 */
import { type MessageReviewOptions, NO_REVIEW, type RunReview } from "../../../schemas/research";

interface Row extends Record<string, SqlStorageValue> {
  options: string | null;
  review: string | null;
  revisions: number;
}

/** Creates the review table (the conversation's schema step 2). */
export function createReviewTable(sql: SqlStorage): void {
  sql.exec(`CREATE TABLE IF NOT EXISTS run_reviews (
    run_id TEXT PRIMARY KEY, options TEXT, review TEXT, revisions INTEGER NOT NULL DEFAULT 0)`);
}

/** The review records of one conversation's runs. */
export class ReviewStore {
  constructor(private readonly sql: SqlStorage) {}

  private row(runId: string): Row | undefined {
    return this.sql
      .exec<Row>("SELECT options, review, revisions FROM run_reviews WHERE run_id = ?", runId)
      .toArray()[0];
  }

  /** Stores the options a message set for its run (kept when the same message comes again). */
  setOptions(runId: string, options: MessageReviewOptions): void {
    this.sql.exec(
      "INSERT INTO run_reviews (run_id, options) VALUES (?, ?) ON CONFLICT (run_id) DO NOTHING",
      runId,
      JSON.stringify(options),
    );
  }

  /** The options a run's message set ({} when none). */
  options(runId: string): MessageReviewOptions {
    const raw = this.row(runId)?.options;
    return raw ? (JSON.parse(raw) as MessageReviewOptions) : {};
  }

  /** Times the run was sent back so far. */
  revisions(runId: string): number {
    return this.row(runId)?.revisions ?? 0;
  }

  /** Counts one more time the run is sent back. */
  addRevision(runId: string): void {
    this.sql.exec(
      `INSERT INTO run_reviews (run_id, revisions) VALUES (?, 1)
       ON CONFLICT (run_id) DO UPDATE SET revisions = revisions + 1`,
      runId,
    );
  }

  /** Records the review a run's result ended with. */
  save(runId: string, review: RunReview): void {
    this.sql.exec(
      `INSERT INTO run_reviews (run_id, review) VALUES (?, ?)
       ON CONFLICT (run_id) DO UPDATE SET review = excluded.review`,
      runId,
      JSON.stringify(review),
    );
  }

  /** The review a run ended with; the empty review when it was never reviewed. */
  review(runId: string): RunReview {
    const row = this.row(runId);
    const saved = row?.review ? (JSON.parse(row.review) as RunReview) : NO_REVIEW;
    return { ...saved, revisions: row?.revisions ?? 0 };
  }
}
