/**
 * The OTLP/HTTP span exporter: spans are queued in memory, sent in batches in the background
 * (`waitUntil`), each batch retried a little, and dropped (with a warning) when the collector
 * stays down — export never slows or fails a run. Encoding is @opentelemetry/otlp-transformer's.
 */
import { JsonTraceSerializer, ProtobufTraceSerializer } from "@opentelemetry/otlp-transformer";
import type { OtlpConfig } from "./otlp-config";
import { readableSpans, type SpanRecord } from "./span-record";

/** Spans sent in one request. */
export const MAX_BATCH = 256;
/** Spans kept waiting at most; older ones are dropped first (and counted). */
export const MAX_QUEUE = 4096;
/** How long spans wait for company before a batch goes. */
export const BATCH_DELAY_MS = 200;
/** Attempts per batch (429, 5xx and network errors are retried). */
export const EXPORT_ATTEMPTS = 3;
/** Time one export request may take. */
export const EXPORT_TIMEOUT_MS = 5_000;

const VERSION = "0.1.0";
const RETRYABLE = new Set([429, 502, 503, 504]);

/** Sends spans to one collector. */
export class OtlpExporter {
  private queue: SpanRecord[] = [];
  private scheduled = false;
  private dropped = 0;

  constructor(
    private readonly config: OtlpConfig,
    private readonly waitUntil: (p: Promise<unknown>) => void,
  ) {}

  /** Queues a finished span; a batch leaves shortly (at once when `now`). */
  add(span: SpanRecord, now = false): void {
    this.queue.push(span);
    if (this.queue.length > MAX_QUEUE)
      this.dropped += this.queue.splice(0, this.queue.length - MAX_QUEUE).length;
    if (now || this.queue.length >= MAX_BATCH) this.waitUntil(this.flush());
    else if (!this.scheduled) {
      this.scheduled = true;
      this.waitUntil(
        new Promise((r) => setTimeout(r, BATCH_DELAY_MS)).then(() => {
          this.scheduled = false;
          return this.flush();
        }),
      );
    }
  }

  /** Sends everything queued, batch by batch; never throws. */
  async flush(): Promise<void> {
    while (this.queue.length) {
      const batch = this.queue.splice(0, MAX_BATCH);
      if (!(await this.send(batch))) this.dropped += batch.length;
    }
    if (this.dropped) {
      console.warn(
        `OTLP export: dropped ${this.dropped} spans (collector at ${this.config.url} unreachable)`,
      );
      this.dropped = 0;
    }
  }

  private async send(batch: SpanRecord[]): Promise<boolean> {
    const spans = readableSpans(batch, this.config.serviceName, VERSION);
    const json = this.config.protocol === "http/json";
    const body = (json ? JsonTraceSerializer : ProtobufTraceSerializer).serializeRequest(spans);
    if (!body) return false;
    for (let attempt = 1; attempt <= EXPORT_ATTEMPTS; attempt++) {
      try {
        const res = await fetch(this.config.url, {
          method: "POST",
          headers: {
            ...this.config.headers,
            "content-type": json ? "application/json" : "application/x-protobuf",
          },
          body,
          signal: AbortSignal.timeout(EXPORT_TIMEOUT_MS),
        });
        await res.body?.cancel();
        if (res.ok) return true;
        if (!RETRYABLE.has(res.status)) return false;
      } catch {
        // network error or timeout: retried below
      }
      if (attempt < EXPORT_ATTEMPTS) await new Promise((r) => setTimeout(r, 100 * 2 ** (attempt - 1)));
    }
    return false;
  }
}
