/** Helpers for workerd tests: the API as a client sees it, the scripted model, SSE reading. */
import { runInDurableObject } from "cloudflare:test";
import { env, exports } from "cloudflare:workers";
import { inject } from "vitest";
import type { Turn } from "../support/scripted-model-turns";
import { isRunEnd, readSse as readSseUntil, type SseMessage } from "../support/sse";

export const ADMIN = "test-admin-token";

/** Calls the Worker like an HTTP client would. */
export function api(
  path: string,
  init: RequestInit & { token?: string | null; json?: unknown } = {},
): Promise<Response> {
  const headers = new Headers(init.headers);
  const token = init.token === undefined ? ADMIN : init.token;
  if (token) headers.set("authorization", `Bearer ${token}`);
  let body = init.body;
  if (init.json !== undefined) {
    headers.set("content-type", "application/json");
    body = JSON.stringify(init.json);
  }
  return exports.default.fetch(new Request(`https://cirrus.test${path}`, { ...init, headers, body }));
}

/** Creates a workspace and a key for it (admin token), returning the key. */
export async function newWorkspaceKey(name: string): Promise<{ id: string; key: string }> {
  const ws = await api("/v1/workspaces", { method: "POST", json: { name } });
  if (ws.status !== 201) throw new Error(`workspace: ${ws.status} ${await ws.text()}`);
  const { id } = (await ws.json()) as { id: string };
  const key = await api(`/v1/workspaces/${id}/keys`, { method: "POST", json: { name: "test" } });
  if (key.status !== 201) throw new Error(`key: ${key.status} ${await key.text()}`);
  return { id, key: ((await key.json()) as { key: string }).key };
}

/** The scripted model's base URL (Node side). */
export const llmUrl = () => inject("llmUrl");

/** Gives a script key its turns; each model request with `model: key` consumes the next. */
export async function script(key: string, turns: Turn[], repeat = false): Promise<void> {
  const res = await fetch(`${llmUrl()}/__scripts/${encodeURIComponent(key)}`, {
    method: "PUT",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ turns, repeat }),
  });
  if (!res.ok) throw new Error(`script ${key}: ${res.status} ${await res.text()}`);
}

/** The request bodies the scripted model received for a key. */
export async function modelRequests(
  key: string,
): Promise<{ messages: { role: string; content: unknown }[]; tools?: unknown[] }[]> {
  const res = await fetch(`${llmUrl()}/__scripts/${encodeURIComponent(key)}/requests`);
  return ((await res.json()) as { requests: never[] }).requests;
}

/** Releases requests held by a `hang` turn. */
export async function release(key: string): Promise<void> {
  await fetch(`${llmUrl()}/__scripts/${encodeURIComponent(key)}/release`, { method: "POST" });
}

/** A unique script key per test. */
export const uniqueKey = (name: string) => `${name}-${crypto.randomUUID().slice(0, 8)}`;

/** Creates a conversation that talks to the given script key. */
export async function createConversation(
  model: string,
  extra: Record<string, unknown> = {},
  token?: string,
): Promise<string> {
  const res = await api("/v1/conversations", { method: "POST", json: { model, ...extra }, token });
  if (res.status !== 201) throw new Error(`create conversation: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { id: string }).id;
}

export type { SseMessage } from "../support/sse";

/** Reads SSE messages until `stop` says so or the stream ends (at most `timeoutMs`). */
export const readSse = (
  res: Response,
  stop: (m: SseMessage, all: SseMessage[]) => boolean = () => false,
  timeoutMs = 15_000,
): Promise<SseMessage[]> => readSseUntil(res, stop, timeoutMs);

/** Stops at a run's terminal event. */
export const untilRunEnd = isRunEnd;

/** Sends a message and reads the run's event stream to its RUN_FINISHED or RUN_ERROR. */
export async function runMessage(id: string, content: string, token?: string): Promise<SseMessage[]> {
  const res = await api(`/v1/conversations/${id}/messages`, { method: "POST", json: { content }, token });
  return readSse(res, untilRunEnd);
}

/** Polls until `check` returns a value, or fails after `timeoutMs`. */
export async function eventually<T>(
  check: () => Promise<T | null | undefined | false>,
  timeoutMs = 10_000,
  stepMs = 50,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await check();
    if (v) return v;
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((r) => setTimeout(r, stepMs));
  }
}

/** GET a conversation's details. */
export async function getConversation(
  id: string,
  token?: string,
): Promise<Record<string, unknown> & { status: string }> {
  const res = await api(`/v1/conversations/${id}`, { token });
  return (await res.json()) as never;
}

/** The Durable Object of a conversation (of the `default` workspace unless told). */
export const conversationObject = (id: string, workspace = "default") =>
  env.CONVERSATIONS.get(env.CONVERSATIONS.idFromName(`${workspace}/${id}`));

/** Writes `n` alternating user/assistant messages ("<label> 1" … "<label> n") straight into a conversation's SQLite, in one statement. */
export function seedMessages(conv: string, n: number, label: string) {
  return runInDurableObject(conversationObject(conv), (_obj, state) => {
    state.storage.sql.exec(
      `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
       INSERT INTO messages (scope, run_id, role, tool_call_id, data, at)
       SELECT '', NULL, r.role, NULL, json_object('role', r.role, 'content', ? || ' ' || i), i
       FROM (SELECT i, CASE i % 2 WHEN 1 THEN 'user' ELSE 'assistant' END AS role FROM n) AS r`,
      n,
      label,
    );
  });
}

export { env };
