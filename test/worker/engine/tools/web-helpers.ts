/** Helpers for the web tool tests: page-server URLs, web_fetch over HTTP, and the web tools built directly. */
import { inject } from "vitest";
import { type WebConfig, webConfig } from "../../../../durable-objects/engine/config/web-config";
import { ToolRegistry } from "../../../../durable-objects/engine/tools/tool";
import { runTool } from "../../../../durable-objects/engine/tools/tool-runner";
import { createWebTools } from "../../../../durable-objects/engine/tools/web";
import { DEFAULT_SEARCH_SETTINGS } from "../../../../schemas/settings";
import { api, createConversation, env } from "../../helpers";

/** The URL of a page on the local page server. */
export const page = (path: string) => `${inject("pageUrl")}${path}`;

/** What web_fetch returns. */
export interface FetchResult {
  url: string;
  content_type: string;
  content: string;
  truncated: boolean;
  final_url: string;
  title?: string;
  author?: string;
  published_at?: string;
  site_name?: string;
  language?: string;
}

/** Calls web_fetch (or another tool) of a conversation through `POST /v1/conversations/{id}/tools/{name}`. */
export async function callWebTool(conv: string, name: string, args: Record<string, unknown>) {
  const res = await api(`/v1/conversations/${conv}/tools/${name}`, {
    method: "POST",
    json: { arguments: args },
  });
  return {
    status: res.status,
    body: (await res.json()) as { result: FetchResult; error: { code: string; message: string } },
  };
}

/** Calls web_fetch in a new conversation. */
export async function webFetch(args: Record<string, unknown>) {
  return callWebTool(await createConversation("echo"), "web_fetch", args);
}

/** Runs web_fetch on web tools built directly with the test bindings' config changed by `overrides`. */
export async function webFetchWith(overrides: Partial<WebConfig>, args: Record<string, unknown>) {
  const config = { ...webConfig(env as unknown as Record<string, unknown>), ...overrides };
  const tools = new ToolRegistry(
    createWebTools({
      config,
      summarize: async () => "unused",
      searchSettings: async () => DEFAULT_SEARCH_SETTINGS,
    }),
  );
  const ctx = { conversationId: "c", workspaceId: "w", runId: null, toolCallId: "t" };
  const limits = { timeoutMs: 10_000, maxResultChars: 50_000, retryBudget: 3 };
  return runTool(tools, "web_fetch", args, ctx, limits);
}
