/** Results of Durable Object RPC calls: errors travel as data, so their status and code survive. */

/** A failure the HTTP layer turns into `{"error": {...}}` with this status. */
export interface RpcFailure {
  ok: false;
  status: 400 | 403 | 404 | 409 | 413 | 422 | 429;
  code: string;
  message: string;
}

export type RpcResult<T> = { ok: true; value: T } | RpcFailure;

export const ok = <T>(value: T): RpcResult<T> => ({ ok: true, value });

export const fail = (status: RpcFailure["status"], code: string, message: string): RpcFailure => ({
  ok: false,
  status,
  code,
  message,
});
