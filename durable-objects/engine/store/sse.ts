/**
 * Server-Sent Events over the event log: replays from a sequence, then streams live events
 * with heartbeats. `id:` carries the sequence so clients resume with Last-Event-ID.
 */
import { type LoggedEvent, TERMINAL_EVENT_TYPES } from "../../../schemas/events";
import type { EventLog } from "./event-log";

/** A slow reader holding this many unsent chunks is dropped; it resumes with Last-Event-ID. */
const MAX_QUEUED_CHUNKS = 10_000;

/** Formats one logged event as an SSE message. */
export function formatSse(e: LoggedEvent): string {
  return `id: ${e.seq}\ndata: ${JSON.stringify(e.event)}\n\n`;
}

/** Options of one SSE stream. */
export interface SseOptions {
  after: number;
  runId?: string;
  heartbeatMs: number;
  /** End the stream after the run's RUN_FINISHED or RUN_ERROR. */
  endOnTerminal: boolean;
}

/** Opens an SSE response over the log. */
export function sseResponse(log: EventLog, opts: SseOptions): Response {
  const { readable, writable } = new TransformStream<Uint8Array, Uint8Array>(undefined, {
    highWaterMark: MAX_QUEUED_CHUNKS,
  });
  const writer = writable.getWriter();
  const encoder = new TextEncoder();
  let closed = false;
  let unsubscribe: (() => void) | null = null;
  let heartbeat: ReturnType<typeof setInterval> | undefined;

  const close = () => {
    if (closed) return;
    closed = true;
    unsubscribe?.();
    clearInterval(heartbeat);
    writer.close().catch(() => {});
  };
  const write = (text: string) => {
    if (closed) return;
    if ((writer.desiredSize ?? 0) <= 0) return close();
    writer.write(encoder.encode(text)).catch(close);
  };

  write(": stream open\n\n");
  const unsub = log.subscribe(
    opts.after,
    (e) => {
      if (closed) return false;
      write(formatSse(e));
      if (opts.endOnTerminal && TERMINAL_EVENT_TYPES.has(e.event.type)) {
        close();
        return false;
      }
      return true;
    },
    opts.runId,
  );
  if (closed) unsub();
  else {
    unsubscribe = unsub;
    heartbeat = setInterval(() => write(": heartbeat\n\n"), opts.heartbeatMs);
    writer.closed.catch(close);
  }
  return new Response(readable, {
    headers: {
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-cache, no-transform",
      "x-accel-buffering": "no",
    },
  });
}
