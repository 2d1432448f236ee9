/** Reads a `text/event-stream` body chunk by chunk: `id:` and `data:` lines, comments ignored. */

/** One SSE message: its `id` (the event's seq) and its data. */
export interface SseMessage {
  id: number | null;
  data: string;
}

/** Calls `onMessage` for every message until the stream ends; rejects when the network fails. */
export async function readSseStream(
  body: ReadableStream<Uint8Array>,
  onMessage: (m: SseMessage) => void,
  onChunk: () => void = () => {},
): Promise<void> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      onChunk();
      buffer += decoder.decode(value, { stream: true }).replace(/\r\n?/g, "\n");
      for (let idx = buffer.indexOf("\n\n"); idx >= 0; idx = buffer.indexOf("\n\n")) {
        const block = buffer.slice(0, idx);
        buffer = buffer.slice(idx + 2);
        const message = parseBlock(block);
        if (message) onMessage(message);
      }
    }
  } finally {
    reader.cancel().catch(() => {});
  }
}

function parseBlock(block: string): SseMessage | null {
  let id: number | null = null;
  const data: string[] = [];
  for (const line of block.split("\n")) {
    if (line.startsWith("id:")) id = Number.parseInt(line.slice(3).trim(), 10);
    else if (line.startsWith("data:")) data.push(line.slice(line.startsWith("data: ") ? 6 : 5));
  }
  return data.length ? { id: Number.isFinite(id) ? id : null, data: data.join("\n") } : null;
}
