import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { EventStream } from "../../../web/ui/event-stream";
import { applyStateDelta, resultFiles } from "../../../web/ui/event-types";
import { readSseStream } from "../../../web/ui/sse";

const servers: Server[] = [];
const streams: EventStream[] = [];

/** A real HTTP server whose handler sees every connection in order. */
async function serve(
  handler: (req: IncomingMessage, res: ServerResponse, n: number) => void,
): Promise<string> {
  let n = 0;
  const server = createServer((req, res) => handler(req, res, n++));
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/events`;
}

const sse = (seq: number, type = "STEP_STARTED") =>
  `id: ${seq}\ndata: {"type":"${type}","stepName":"s${seq}"}\n\n`;

afterEach(async () => {
  for (const s of streams.splice(0)) s.stop();
  for (const s of servers.splice(0)) {
    s.closeAllConnections();
    await new Promise((r) => s.close(r));
  }
});

describe("the web event stream", () => {
  it("resumes after a dropped connection with Last-Event-ID and delivers each event once", async () => {
    const resumedFrom: (string | undefined)[] = [];
    const url = await serve((req, res, n) => {
      resumedFrom.push(req.headers["last-event-id"] as string | undefined);
      res.writeHead(200, { "content-type": "text/event-stream" });
      if (n === 0) {
        res.write(sse(1) + sse(2));
        setTimeout(() => res.destroy(), 50);
      } else {
        // A server replaying one event too many must not cause a duplicate.
        res.write(`: heartbeat\n\n${sse(2)}${sse(3, "RUN_FINISHED")}`);
      }
    });
    const seen: number[] = [];
    const statuses: string[] = [];
    const stream = new EventStream({
      url,
      headers: () => ({ authorization: "Bearer t" }),
      after: 0,
      onEvent: (seq) => seen.push(seq),
      onStatus: (s) => statuses.push(s),
    });
    streams.push(stream);
    stream.start();
    await expect.poll(() => seen, { timeout: 10_000 }).toEqual([1, 2, 3]);
    expect(resumedFrom).toEqual(["0", "2"]);
    expect(statuses).toContain("reconnecting");
    expect(stream.seq).toBe(3);
  });

  it("stops for good when the server refuses the stream", async () => {
    let calls = 0;
    const url = await serve((_req, res) => {
      calls++;
      res.writeHead(403, { "content-type": "application/json" });
      res.end('{"error":{"code":"forbidden","message":"no"}}');
    });
    const fatal: number[] = [];
    const stream = new EventStream({
      url,
      headers: () => ({}),
      after: 5,
      onEvent: () => {},
      onFatal: (s) => fatal.push(s),
    });
    streams.push(stream);
    stream.start();
    await expect.poll(() => fatal, { timeout: 10_000 }).toEqual([403]);
    expect(calls).toBe(1);
  });

  it("lets go of a conversation once stopped, so the next one opened shows only its own events (agents #420)", async () => {
    let openA = 0;
    let heldA: ServerResponse | null = null;
    const urlA = await serve((_req, res) => {
      openA++;
      heldA = res;
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.write(sse(1));
      res.on("close", () => openA--);
    });
    const urlB = await serve((_req, res) => {
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.write(sse(1, "TEXT_MESSAGE_CONTENT") + sse(2, "TEXT_MESSAGE_CONTENT"));
    });
    const seen: Record<string, string[]> = { a: [], b: [] };
    const open = (url: string, into: string[]) => {
      const stream = new EventStream({
        url,
        headers: () => ({}),
        after: 0,
        onEvent: (seq, e) => into.push(`${seq}:${e.type}`),
      });
      streams.push(stream);
      stream.start();
      return stream;
    };
    const a = open(urlA, seen.a);
    await expect.poll(() => seen.a, { timeout: 10_000 }).toEqual(["1:STEP_STARTED"]);

    // The page switches to conversation B while A's run goes on writing.
    a.stop();
    heldA!.write(sse(2, "TEXT_MESSAGE_CONTENT"));
    open(urlB, seen.b);
    await expect
      .poll(() => seen.b, { timeout: 10_000 })
      .toEqual(["1:TEXT_MESSAGE_CONTENT", "2:TEXT_MESSAGE_CONTENT"]);
    await expect.poll(() => openA, { timeout: 3_000 }).toBe(0);
    expect(seen.a).toEqual(["1:STEP_STARTED"]);
  });

  it("parses SSE messages split across chunks and CRLF line ends", async () => {
    const text = 'id: 7\r\ndata: {"a":\r\ndata: 1}\r\n\r\n: comment\n\nid: 8\ndata: x\n\n';
    const bytes = new TextEncoder().encode(text);
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < bytes.length; i += 5) controller.enqueue(bytes.slice(i, i + 5));
        controller.close();
      },
    });
    const got: { id: number | null; data: string }[] = [];
    await readSseStream(body, (m) => got.push(m));
    expect(got).toEqual([
      { id: 7, data: '{"a":\n1}' },
      { id: 8, data: "x" },
    ]);
  });
});

describe("web event helpers", () => {
  it("applies the runtime's state deltas", () => {
    const next = applyStateDelta({ tasks: [], pending_question: null }, [
      {
        op: "replace",
        path: "/tasks",
        value: [{ id: "1", subject: "a", status: "pending", created_at: 1, updated_at: 1 }],
      },
      { op: "replace", path: "/pending_question", value: null },
    ]);
    expect(next.tasks.map((t) => t.subject)).toEqual(["a"]);
    expect(next.pending_question).toBeNull();
  });

  it("links exactly the files the server listed on the result", () => {
    const result = (files?: { path: string }[]) =>
      ({ type: "TOOL_CALL_RESULT", messageId: "m", toolCallId: "c", content: "{}", files }) as never;
    expect(resultFiles(result([{ path: "reports/q3.md" }, { path: "shots/a.png" }]))).toEqual([
      "reports/q3.md",
      "shots/a.png",
    ]);
    expect(resultFiles(result())).toEqual([]);
  });
});
