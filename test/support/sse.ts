/**
 * The one reader of `text/event-stream` bodies for tests and benches (in workerd and in Node):
 * messages one at a time (`id:` and `data:` lines, the data parsed as JSON; comments such as
 * heartbeats skipped), with the raw text kept for assertions on exactly what was sent.
 */

/** The data of a Cirrus event. */
export interface SseEvent {
  type: string;
  [k: string]: unknown;
}

/** One SSE message: its `id:` (the event's seq) and its `data:` lines, joined and parsed. */
export interface SseMessage<T = SseEvent> {
  id: number | null;
  data: T;
}

/** Reads one event stream; {@link close} it when done (the helpers below do). */
export class SseReader<T = SseEvent> {
  private readonly reader: ReadableStreamDefaultReader<Uint8Array>;
  private readonly decoder = new TextDecoder();
  private buffer = "";
  private ended = false;
  /** Every character read so far, comments included. */
  text = "";

  constructor(body: ReadableStream<Uint8Array>) {
    this.reader = body.getReader();
  }

  /** The next message, or null once the stream has ended; fails after `timeoutMs` if one is given. */
  async next(timeoutMs?: number): Promise<SseMessage<T> | null> {
    const deadline = timeoutMs === undefined ? undefined : Date.now() + timeoutMs;
    for (;;) {
      const message = this.take();
      if (message) return message;
      if (this.ended) return null;
      await this.read(deadline, "no SSE message in time");
    }
  }

  /** Messages until `stop` says so (that one included) or the stream ends; fails after `timeoutMs`. */
  async until(
    stop: (m: SseMessage<T>, all: SseMessage<T>[]) => boolean,
    timeoutMs?: number,
  ): Promise<SseMessage<T>[]> {
    const deadline = timeoutMs === undefined ? undefined : Date.now() + timeoutMs;
    const all: SseMessage<T>[] = [];
    for (;;) {
      const message = this.take();
      if (message) {
        all.push(message);
        if (stop(message, all)) return all;
      } else if (this.ended) return all;
      else await this.read(deadline, () => `SSE timeout; got ${all.map(describe).join(",")}`);
    }
  }

  /** Reads until the raw text holds `pattern` (a comment such as `: heartbeat` counts). */
  async untilText(pattern: string, timeoutMs?: number): Promise<void> {
    const deadline = timeoutMs === undefined ? undefined : Date.now() + timeoutMs;
    while (!this.text.includes(pattern)) {
      if (this.ended) throw new Error(`the stream ended without ${pattern}`);
      await this.read(deadline, `no ${pattern} in time`);
    }
  }

  /** Stops reading (the server sees the client go). */
  async close(): Promise<void> {
    await this.reader.cancel().catch(() => {});
  }

  /** Parses the first complete message of the buffer, if any. */
  private take(): SseMessage<T> | null {
    for (let end = this.buffer.indexOf("\n\n"); end >= 0; end = this.buffer.indexOf("\n\n")) {
      const block = this.buffer.slice(0, end);
      this.buffer = this.buffer.slice(end + 2);
      const lines = block.split("\n");
      const data = lines
        .filter((l) => l.startsWith("data:"))
        .map((l) => l.slice(l.startsWith("data: ") ? 6 : 5));
      if (data.length === 0) continue;
      const id = lines.find((l) => l.startsWith("id:"));
      return { id: id ? Number(id.slice(3).trim()) : null, data: JSON.parse(data.join("\n")) as T };
    }
    return null;
  }

  /** Reads one chunk, or fails with `timeout` once `deadline` passed. */
  private async read(deadline: number | undefined, timeout: string | (() => string)): Promise<void> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late =
      deadline === undefined
        ? null
        : new Promise<never>((_, reject) => {
            timer = setTimeout(
              () => reject(new Error(typeof timeout === "string" ? timeout : timeout())),
              Math.max(0, deadline - Date.now()),
            );
          });
    try {
      const chunk = await (late ? Promise.race([this.reader.read(), late]) : this.reader.read());
      if (chunk.done) this.ended = true;
      else {
        const text = this.decoder.decode(chunk.value, { stream: true });
        this.text += text;
        this.buffer += text;
      }
    } finally {
      clearTimeout(timer);
    }
  }
}

const describe = (m: SseMessage<unknown>) => String((m.data as { type?: unknown })?.type ?? "?");

/** Reads a response's messages until `stop` says so or the stream ends, then lets go of it. */
export async function readSse<T = SseEvent>(
  res: Response,
  stop: (m: SseMessage<T>, all: SseMessage<T>[]) => boolean = () => false,
  timeoutMs?: number,
): Promise<SseMessage<T>[]> {
  const reader = new SseReader<T>(res.body!);
  try {
    return await reader.until(stop, timeoutMs);
  } finally {
    await reader.close();
  }
}

/** A run's terminal event: RUN_FINISHED or RUN_ERROR. */
export const isRunEnd = (m: SseMessage<{ type: string }>): boolean =>
  m.data.type === "RUN_FINISHED" || m.data.type === "RUN_ERROR";
