/** A TCP proxy in front of Cirrus whose connections a test can cut, to simulate a network drop. */

import type { AddressInfo } from "node:net";
import { connect, createServer, type Socket } from "node:net";

/** A running proxy. */
export interface TcpProxy {
  url: string;
  /** Cuts every open connection (both sides). */
  dropAll(): number;
  close(): Promise<void>;
}

/** Proxies 127.0.0.1:<random> to `target` (an http://host:port URL). */
export async function startTcpProxy(target: string): Promise<TcpProxy> {
  const { hostname, port } = new URL(target);
  const sockets = new Set<Socket>();
  const track = (s: Socket) => {
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
    s.on("error", () => s.destroy());
  };
  const server = createServer((client) => {
    const upstream = connect(Number(port), hostname);
    track(client);
    track(upstream);
    client.pipe(upstream);
    upstream.pipe(client);
    client.on("close", () => upstream.destroy());
    upstream.on("close", () => client.destroy());
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    dropAll: () => {
      const n = sockets.size;
      for (const s of sockets) s.destroy();
      return n;
    },
    close: () =>
      new Promise<void>((r) => {
        for (const s of sockets) s.destroy();
        server.close(() => r());
      }),
  };
}
