/**
 * A WebSocket endpoint on the page server (node's http upgrade, no library): every handshake is
 * recorded per id (path query `id`, with the Host it was sent to), then accepted with one text
 * message, "hello <id>". GET /ws/seen?id=… lists the hosts of the handshakes received for an id.
 */
import { createHash } from "node:crypto";
import type { IncomingMessage } from "node:http";
import type { Duplex } from "node:stream";
import type { PageHandler } from "./page-server";

const handshakes = new Map<string, string[]>();

/** Answers a WebSocket upgrade on /ws: records it, accepts it, sends one message. */
export function handleUpgrade(req: IncomingMessage, socket: Duplex): void {
  const url = new URL(req.url ?? "/", "http://127.0.0.1");
  const id = url.searchParams.get("id") ?? "";
  handshakes.set(id, [...(handshakes.get(id) ?? []), String(req.headers.host ?? "")]);
  const key = String(req.headers["sec-websocket-key"] ?? "");
  if (url.pathname !== "/ws" || !key) {
    socket.end("HTTP/1.1 400 Bad Request\r\n\r\n");
    return;
  }
  const accept = createHash("sha1").update(`${key}258EAFA5-E914-47DA-95CA-C5AB0DC85B11`).digest("base64");
  const text = Buffer.from(`hello ${id}`);
  socket.write(
    `HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: ${accept}\r\n\r\n`,
  );
  socket.write(Buffer.concat([Buffer.from([0x81, text.length]), text]));
  socket.on("error", () => {});
  socket.on("data", () => {}); // frames from the page are read and dropped
}

/** Route of the handshakes seen. */
export const websocketPages: [string, PageHandler][] = [
  [
    "/ws/seen",
    (_req, res, url) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ hosts: handshakes.get(url.searchParams.get("id") ?? "") ?? [] }));
    },
  ],
];
