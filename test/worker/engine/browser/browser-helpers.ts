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

/** The browser fleet of a workspace (its Durable Object). */
export const fleetObject = (workspaceId = "default") =>
  env.BROWSER_FLEET.get(env.BROWSER_FLEET.idFromName(workspaceId));

/** A value of a conversation's browser registry in its workspace's fleet. */
export async function fleetMeta<T>(conv: string, key: string, workspaceId = "default"): Promise<T | null> {
  return runInDurableObject(fleetObject(workspaceId), (_obj, state) => {
    try {
      const row = state.storage.sql
        .exec<{ value: string }>("SELECT value FROM fleet_tab_meta WHERE scope = ? AND key = ?", conv, key)
        .toArray()[0];
      return row ? (JSON.parse(row.value) as T) : null;
    } catch {
      return null; // the fleet has not browsed yet
    }
  });
}

/** Sets a value of a conversation's browser registry in the fleet (e.g. its last use, to age it). */
export async function setFleetMeta(conv: string, key: string, value: unknown, workspaceId = "default") {
  await runInDurableObject(fleetObject(workspaceId), (_obj, state) => {
    state.storage.sql.exec(
      "UPDATE fleet_tab_meta SET value = ? WHERE scope = ? AND key = ?",
      JSON.stringify(value),
      conv,
      key,
    );
  });
}

/** The session a conversation's browser context lives on (read from the workspace's fleet). */
export function sessionIdOf(conv: string, workspaceId = "default"): Promise<string | null> {
  return fleetMeta<string>(conv, "session_id", workspaceId);
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

/** How many browser contexts the fleet holds open for a conversation (0 or 1). */
export async function contextsOf(conv: string, workspaceId = "default"): Promise<number> {
  return runInDurableObject(fleetObject(workspaceId), (_obj, state) => {
    try {
      return state.storage.sql
        .exec<{ n: number }>("SELECT COUNT(*) AS n FROM fleet_contexts WHERE conv = ?", conv)
        .one().n;
    } catch {
      return 0;
    }
  });
}
