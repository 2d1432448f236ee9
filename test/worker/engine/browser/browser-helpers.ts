/** Helpers for the browser tests: direct tool calls and the local page server's URLs. */
import { env, runInDurableObject } from "cloudflare:test";
import { api } from "../../helpers";

/** How long one browser test may take (launching Chromium included). */
export const BROWSER_TEST_TIMEOUT_MS = 90_000;

/** A page of the local page server. */
export const page = (path: string) => `${(env as unknown as { TEST_PAGE_URL: string }).TEST_PAGE_URL}${path}`;

/** The result of a direct tool call. */
export interface ToolReply {
  status: number;
  // biome-ignore lint/suspicious/noExplicitAny: test results are read loosely
  result: any;
  error?: { code: string; message: string };
}

/** Calls a tool directly through the API, as a client would. */
export async function tool(
  conv: string,
  name: string,
  args: Record<string, unknown> = {},
): Promise<ToolReply> {
  const res = await api(`/v1/conversations/${conv}/tools/${name}`, {
    method: "POST",
    json: { arguments: args },
  });
  const body = (await res.json()) as { result?: unknown; error?: { code: string; message: string } };
  return { status: res.status, result: body.result, error: body.error };
}

/** Calls a tool and fails loudly unless it succeeded. */
// biome-ignore lint/suspicious/noExplicitAny: test results are read loosely
export async function ok(conv: string, name: string, args: Record<string, unknown> = {}): Promise<any> {
  const reply = await tool(conv, name, args);
  if (reply.status !== 200) throw new Error(`${name} → ${reply.status} ${JSON.stringify(reply.error)}`);
  return reply.result;
}

/** The stored browser session id of a conversation (read from its Durable Object). */
export async function sessionIdOf(conv: string, workspaceId = "default"): Promise<string | null> {
  const ns = env.CONVERSATIONS;
  const stub = ns.get(ns.idFromName(`${workspaceId}/${conv}`));
  return runInDurableObject(stub, (_obj, state) => {
    const row = state.storage.sql
      .exec<{ value: string }>("SELECT value FROM browser_meta WHERE key = 'session_id'")
      .toArray()[0];
    return row ? (JSON.parse(row.value) as string | null) : null;
  });
}

/** The live view's tab list and launch count. */
export async function liveTabs(conv: string): Promise<{
  data: { id: number; window_id: number; url: string; title: string; active: boolean }[];
  browser: { connected: boolean; launches: number; live_viewers: number };
}> {
  const res = await api(`/v1/conversations/${conv}/tabs`);
  if (res.status !== 200) throw new Error(`tabs → ${res.status} ${await res.text()}`);
  return res.json() as never;
}
