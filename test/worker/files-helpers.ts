/** Helpers for the workspace-file tests: workspaces with keys, direct tool calls, file bytes. */
import { inject } from "vitest";
import { api } from "./helpers";

export { newWorkspaceKey } from "./helpers";

/** What a direct tool call answered. */
export interface ToolReply {
  status: number;
  // biome-ignore lint/suspicious/noExplicitAny: tests read varied result shapes.
  result: any;
  error?: { code: string; message: string };
}

/** Calls a tool through `POST /v1/conversations/{id}/tools/{name}`. */
export async function callTool(
  conversationId: string,
  name: string,
  args: Record<string, unknown>,
  token?: string,
): Promise<ToolReply> {
  const res = await api(`/v1/conversations/${conversationId}/tools/${name}`, {
    method: "POST",
    json: { arguments: args },
    token,
  });
  const body = (await res.json()) as { result?: unknown; error?: { code: string; message: string } };
  return { status: res.status, result: body.result, error: body.error };
}

/** `n` numbered lines: "line 1" … "line n", each ending in a newline. */
export const numberedLines = (n: number) => Array.from({ length: n }, (_, i) => `line ${i + 1}\n`).join("");

/** Stores a page-server fixture (`route`, e.g. "/web/pdf/report") in a conversation's workspace as `path` of `type`. */
export async function storeFixture(conversationId: string, route: string, path: string, type: string) {
  const bytes = new Uint8Array(await (await fetch(`${inject("pageUrl")}${route}`)).arrayBuffer());
  const w = await callTool(conversationId, "opfs_write", {
    path,
    content: `data:${type};base64,${base64(bytes)}`,
  });
  if (w.status !== 200) throw new Error(`storeFixture ${route}: ${w.status} ${JSON.stringify(w.error)}`);
}

/** Base64 of bytes. */
export function base64(bytes: Uint8Array): string {
  let bin = "";
  for (const b of bytes) bin += String.fromCharCode(b);
  return btoa(bin);
}

/** A stream of `total` bytes where byte i is `i % 251`, in chunks of 64 KiB. */
export function patternStream(total: number): ReadableStream<Uint8Array> {
  let sent = 0;
  return new ReadableStream({
    pull(controller) {
      if (sent >= total) return controller.close();
      const n = Math.min(64 * 1024, total - sent);
      const chunk = new Uint8Array(n);
      for (let i = 0; i < n; i++) chunk[i] = (sent + i) % 251;
      sent += n;
      controller.enqueue(chunk);
    },
  });
}
