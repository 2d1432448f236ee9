/**
 * Where recordings live: R2, under `recordings/<workspace>/<conversation>/<recording>/`, one
 * `meta.json` (rewritten at each write, so its upload time is the recording's last activity)
 * and numbered chunks of events (`000000.json`, …), each one page of the read API. Retention
 * deletes a recording whose meta is older than the TTL ({@link sweepExpiredRecordings}).
 */
import type { RecordingInfo } from "../../../schemas/recordings";

/** The R2 folder of a conversation's recordings. */
export const recordingsPrefix = (workspaceId: string, conversationId: string) =>
  `recordings/${workspaceId}/${conversationId}/`;

const chunkKey = (folder: string, n: number) => `${folder}${String(n).padStart(6, "0")}.json`;

/** What a recorder reports about its recording at each write. */
export interface RecordingStart {
  id: string;
  tab_id: number;
  url: string;
  started_at: number;
  truncated: boolean;
}

/** A batch of events to store. */
export interface RecordingChunk {
  events: unknown[];
  bytes: number;
}

/** Where recorders write. */
export interface RecordingSink {
  start(meta: RecordingStart): Promise<void>;
  append(meta: RecordingStart, chunk: RecordingChunk): Promise<void>;
}

/** The recordings of one conversation in R2. */
export class RecordingStore implements RecordingSink {
  private readonly infos = new Map<string, RecordingInfo>();
  readonly prefix: string;

  constructor(
    private readonly bucket: R2Bucket,
    workspaceId: string,
    conversationId: string,
    private readonly ttlMs: number,
    private readonly now: () => number = Date.now,
  ) {
    this.prefix = recordingsPrefix(workspaceId, conversationId);
  }

  async start(meta: RecordingStart): Promise<void> {
    const info: RecordingInfo = {
      ...meta,
      ended_at: meta.started_at,
      size: 0,
      events: 0,
      chunks: 0,
      expires_at: meta.started_at + this.ttlMs,
    };
    this.infos.set(meta.id, info);
    await this.writeMeta(info);
  }

  async append(meta: RecordingStart, chunk: RecordingChunk): Promise<void> {
    const info = this.infos.get(meta.id);
    if (!info) throw new Error(`recording ${meta.id} was not started`);
    // No events: only the meta changes (a recording that was cut at its size limit says so).
    if (chunk.events.length > 0) {
      const folder = `${this.prefix}${meta.id}/`;
      await this.bucket.put(chunkKey(folder, info.chunks), JSON.stringify(chunk.events), {
        httpMetadata: { contentType: "application/json" },
      });
      info.chunks += 1;
      info.events += chunk.events.length;
      info.size += chunk.bytes;
      info.ended_at = this.now();
    }
    info.expires_at = info.ended_at + this.ttlMs;
    info.truncated = meta.truncated;
    info.url = meta.url;
    await this.writeMeta(info);
  }

  /** A page of recordings (R2's order: by id, which starts with the time it began). */
  async list(
    limit: number,
    cursor: string | null,
  ): Promise<{ data: RecordingInfo[]; next_cursor: string | null }> {
    const page = await this.bucket.list({
      prefix: this.prefix,
      delimiter: "/",
      limit,
      ...(cursor ? { cursor } : {}),
    });
    const metas = await Promise.all(page.delimitedPrefixes.map((folder) => this.readMeta(folder)));
    return {
      data: metas.filter((m): m is RecordingInfo => m !== null),
      next_cursor: page.truncated ? page.cursor : null,
    };
  }

  /** One recording's meta, or null. */
  info(id: string): Promise<RecordingInfo | null> {
    return this.readMeta(`${this.prefix}${id}/`);
  }

  /** Chunk `n` of a recording's events, or null past its end. */
  async chunk(id: string, n: number): Promise<unknown[] | null> {
    const object = await this.bucket.get(chunkKey(`${this.prefix}${id}/`, n));
    return object ? ((await object.json()) as unknown[]) : null;
  }

  /** Deletes one recording (true when it existed). */
  async delete(id: string): Promise<boolean> {
    const existed = (await this.info(id)) !== null;
    await deletePrefix(this.bucket, `${this.prefix}${id}/`);
    return existed;
  }

  /** Deletes every recording of the conversation. */
  deleteAll(): Promise<number> {
    return deletePrefix(this.bucket, this.prefix);
  }

  private async writeMeta(info: RecordingInfo): Promise<void> {
    await this.bucket.put(`${this.prefix}${info.id}/meta.json`, JSON.stringify(info), {
      httpMetadata: { contentType: "application/json" },
    });
  }

  private async readMeta(folder: string): Promise<RecordingInfo | null> {
    const object = await this.bucket.get(`${folder}meta.json`);
    return object ? ((await object.json()) as RecordingInfo) : null;
  }
}

/** Deletes every object under `prefix`, a page of 1,000 at a time; returns how many. */
export async function deletePrefix(bucket: R2Bucket, prefix: string): Promise<number> {
  let deleted = 0;
  let cursor: string | undefined;
  do {
    const page = await bucket.list({ prefix, limit: 1000, ...(cursor ? { cursor } : {}) });
    if (page.objects.length) await bucket.delete(page.objects.map((o) => o.key));
    deleted += page.objects.length;
    cursor = page.truncated ? page.cursor : undefined;
  } while (cursor);
  return deleted;
}

/** What one retention sweep did; `more` when it stopped at its page budget. */
export interface SweepResult {
  scanned: number;
  deleted_recordings: number;
  more: boolean;
}

/**
 * Deletes recordings whose last write is older than `ttlMs` (their meta.json's upload time).
 * Reads at most `maxPages` pages of 1,000 keys per call (the Cron Trigger's subrequest budget);
 * says `more` when it stopped early. Chunks of a recording being deleted are skipped by the
 * scan (their folder goes whole).
 */
export async function sweepExpiredRecordings(
  bucket: R2Bucket,
  now: number,
  ttlMs: number,
  maxPages = 10,
): Promise<SweepResult> {
  const result: SweepResult = { scanned: 0, deleted_recordings: 0, more: false };
  let cursor: string | undefined;
  for (let page = 0; page < maxPages; page++) {
    const listing = await bucket.list({ prefix: "recordings/", limit: 1000, ...(cursor ? { cursor } : {}) });
    result.scanned += listing.objects.length;
    for (const object of listing.objects) {
      if (!object.key.endsWith("/meta.json") || now - object.uploaded.getTime() < ttlMs) continue;
      await deletePrefix(bucket, object.key.slice(0, -"meta.json".length));
      result.deleted_recordings += 1;
    }
    if (!listing.truncated) return result;
    cursor = listing.cursor;
  }
  result.more = true;
  return result;
}
