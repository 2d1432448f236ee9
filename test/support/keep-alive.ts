import type { Server } from "node:http";

/**
 * Keeps a test server's idle keep-alive connections open until it closes. Node drops them after
 * 5 s; a workerd runner that reuses a pooled connection just as Node drops it sees "Network
 * connection lost". The runners live for many files, so idle gaps of 5 s are common.
 * `server.close()` still ends idle connections (Node ≥ 19).
 */
export function keepIdleConnections<S extends Server>(server: S): S {
  server.keepAliveTimeout = 0;
  return server;
}
