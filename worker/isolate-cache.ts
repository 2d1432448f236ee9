/**
 * A small per-isolate cache with a time to live and a fixed number of entries, so the widget's
 * hot path answers repeat lookups without a Durable Object round trip. Entries are hints with a
 * bounded age: each isolate has its own copy, and a change made elsewhere is seen within the TTL.
 */

/** A bounded map whose entries expire; the oldest entry is dropped when it is full. */
export class IsolateCache<V> {
  private readonly entries = new Map<string, { value: V; expires: number }>();

  constructor(
    /** Most entries kept; inserting one more evicts the least recently written. */
    private readonly maxEntries: number,
  ) {}

  /** The value, or undefined when absent or expired. */
  get(key: string, now = Date.now()): V | undefined {
    const hit = this.entries.get(key);
    if (!hit) return undefined;
    if (hit.expires > now) return hit.value;
    this.entries.delete(key);
    return undefined;
  }

  /** Stores `value` for `ttlMs`. */
  set(key: string, value: V, ttlMs: number, now = Date.now()): void {
    this.entries.delete(key);
    if (this.entries.size >= this.maxEntries) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    this.entries.set(key, { value, expires: now + ttlMs });
  }

  /** Forgets one entry (after a change made in this isolate). */
  delete(key: string): void {
    this.entries.delete(key);
  }

  /** Forgets every entry that passes `test`. */
  deleteWhere(test: (value: V, key: string) => boolean): void {
    for (const [key, entry] of this.entries) if (test(entry.value, key)) this.entries.delete(key);
  }

  /** How many entries are held (expired ones included until read). */
  get size(): number {
    return this.entries.size;
  }
}
