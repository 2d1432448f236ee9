/** Helpers for the widget-visitor tests: a workspace with keys, visitor sessions and requests, tool results. */
import { expect } from "vitest";
import { api, modelRequests } from "../helpers";

/** The site the publishable key is registered for. */
export const SHOP = "https://shop.example";

/** A workspace (admin) with a secret key and a publishable key for SHOP. */
export async function workspaceWithKeys(name: string): Promise<{ ws: string; sk: string; pk: string }> {
  const ws = (await (await api("/v1/workspaces", { method: "POST", json: { name } })).json()) as {
    id: string;
  };
  const sk = (await (
    await api(`/v1/workspaces/${ws.id}/keys`, { method: "POST", json: { name: "server" } })
  ).json()) as { key: string };
  const pk = (await (
    await api(`/v1/workspaces/${ws.id}/keys`, {
      method: "POST",
      json: { name: "site", type: "publishable", allowed_origins: [SHOP] },
    })
  ).json()) as { key: string };
  return { ws: ws.id, sk: sk.key, pk: pk.key };
}

/** A request as the widget makes it: publishable key, the site's Origin, the visitor token. */
export function asVisitor(
  path: string,
  pk: string,
  visitor: string | null,
  init: RequestInit & { json?: unknown } = {},
): Promise<Response> {
  const headers = new Headers(init.headers);
  headers.set("origin", SHOP);
  if (visitor) headers.set("x-visitor-token", visitor);
  return api(path, { ...init, headers, token: pk });
}

/** A visitor session: its conversation, token and visitor id (as the owner sees it in the metadata). */
export async function visitorSession(
  pk: string,
  sk: string,
): Promise<{ conv: string; token: string; visitorId: string }> {
  const res = await asVisitor("/v1/widget/session", pk, null, { method: "POST" });
  expect(res.status).toBe(201);
  const s = (await res.json()) as { conversation_id: string; visitor_token: string };
  const conv = (await (await api(`/v1/conversations/${s.conversation_id}`, { token: sk })).json()) as {
    metadata: { visitor_id: string };
  };
  expect(conv.metadata.visitor_id).toMatch(/^vis_/);
  return { conv: s.conversation_id, token: s.visitor_token, visitorId: conv.metadata.visitor_id };
}

/** The visitor sends a message and waits for the run's end; its status. */
export async function visitorSays(
  pk: string,
  s: { conv: string; token: string },
  content: string,
): Promise<string> {
  const res = await asVisitor(`/v1/conversations/${s.conv}/messages`, pk, s.token, {
    method: "POST",
    json: { content, stream: false },
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { status: string }).status;
}

/** The tool names offered in one model request of a script key, sorted. */
export async function offered(key: string, request = 0): Promise<string[]> {
  const req = (await modelRequests(key))[request];
  return ((req.tools ?? []) as { function: { name: string } }[]).map((t) => t.function.name).sort();
}

/** The tool results of the model's last request, parsed, by tool call id. */
export async function results(
  key: string,
): Promise<
  Record<string, { ok?: boolean; error?: { code: string; message: string }; [k: string]: unknown }>
> {
  const last = (await modelRequests(key)).at(-1)!.messages as {
    role: string;
    content: unknown;
    tool_call_id?: string;
  }[];
  return Object.fromEntries(
    last.filter((m) => m.role === "tool").map((m) => [m.tool_call_id, JSON.parse(String(m.content))]),
  );
}
