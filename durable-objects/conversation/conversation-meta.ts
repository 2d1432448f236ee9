/**
 * A conversation's small settings in its SQLite `meta` table: its info (set at creation), the
 * job it runs for, its own HTTP tools and the context summary.
 */
import type { AgentSettings } from "../../schemas/agent-settings";
import {
  type Channel,
  type Conversation,
  type CreateConversation,
  DEFAULT_TITLE_CHARS,
} from "../../schemas/api";
import type { StoredHttpTool } from "../../schemas/http-tools";
import type { VerifyCitations } from "../../schemas/research";
import { DEFAULT_MAX_REVISIONS, DEFAULT_VERIFY_CITATIONS } from "../engine/research/run-review";
import type { RuntimeConfig } from "../engine/config/runtime-config";
import { fail, ok, type RpcResult } from "../engine/rpc-result";
import type { JobLink } from "./job-link";

/** HTTP tools one conversation may hold of its own (kept in one `meta` row, loaded on every run). */
export const MAX_CONVERSATION_HTTP_TOOLS = 100;

/** What a conversation's view adds to its stored info: its live status and last activity. */
export type LiveFields = Pick<Conversation, "status" | "last_activity_at">;

/** Conversation settings stored at creation (title and channel may be missing in older ones). */
export interface ConversationInfo
  extends Omit<
    Conversation,
    | keyof LiveFields
    | "title"
    | "channel"
    | "verify_citations"
    | "max_revisions"
    | "grader_model"
    | "fallback_models"
  > {
  title?: string | null;
  channel?: Channel;
  /** Absent in conversations created before citations were checked (and when not set): the defaults. */
  verify_citations?: VerifyCitations;
  max_revisions?: number;
  grader_model?: string | null;
  /** Absent in conversations created before fallbacks (and when not set): MODEL_FALLBACKS. */
  fallback_models?: string[] | null;
  workspace_id: string;
  allowed_domains?: string[];
  /** The origin (scheme://host) the conversation was created through; absolute file links use it. */
  origin?: string;
  /** The widget visitor whose conversation this is (its tools follow the widget policy). */
  visitor_id?: string;
}

/** What the creator of a conversation passes besides its settings. */
export interface CreateOptions {
  /** The scheduled job run this conversation is (its runs are unattended). */
  job?: JobLink;
  /** The origin the creating request reached Cirrus through. */
  origin?: string;
  /** Where it was started (default: `job` with a job link, else the body's channel or `api`). */
  channel?: Channel;
  /** The widget visitor it is opened for. */
  visitorId?: string;
}

/**
 * The widget visitor of a conversation, or null when an owner's key drives it. Widget
 * conversations from before visitor ids count as their own visitor.
 */
export function visitorOf(info: ConversationInfo): string | null {
  return info.visitor_id ?? (info.channel === "widget" ? info.id : null);
}

/** The public view of the stored info. */
export function publicInfo(info: ConversationInfo, live: LiveFields): Conversation {
  const { workspace_id: _ws, origin: _origin, visitor_id: _visitor, ...rest } = info;
  return {
    ...rest,
    title: rest.title ?? null,
    channel: rest.channel ?? "api",
    ...live,
    allowed_tools: rest.allowed_tools ?? null,
    browser_profile: rest.browser_profile ?? null,
    max_cost_usd: rest.max_cost_usd ?? null,
    recording: rest.recording ?? false,
    verify_citations: rest.verify_citations ?? DEFAULT_VERIFY_CITATIONS,
    max_revisions: rest.max_revisions ?? DEFAULT_MAX_REVISIONS,
    grader_model: rest.grader_model ?? null,
    fallback_models: rest.fallback_models ?? null,
  };
}

/** The info of a new conversation: its request, else the workspace's agent defaults, else the deployment's. */
export function newConversationInfo(
  id: string,
  workspaceId: string,
  body: CreateConversation,
  agent: AgentSettings,
  config: RuntimeConfig,
  origin?: string,
  channel: Channel = "api",
): ConversationInfo {
  return {
    id,
    object: "conversation",
    workspace_id: workspaceId,
    created_at: Date.now(),
    title: body.title ?? null,
    channel,
    instructions: body.instructions ?? agent.instructions ?? null,
    model: body.model ?? agent.model ?? config.defaultModel,
    ...(body.fallback_models ? { fallback_models: body.fallback_models } : {}),
    metadata: body.metadata ?? {},
    max_steps: body.max_steps ?? config.maxSteps,
    max_consecutive_failures: body.max_consecutive_failures ?? config.maxConsecutiveFailures,
    context_window: body.context_window ?? config.contextTokens,
    context_clear_at_tokens: body.context_clear_at_tokens ?? config.clearAtTokens,
    context_keep_results: body.context_keep_results ?? config.keepResults,
    output_schema: body.output_schema ?? null,
    ...(body.allowed_domains ? { allowed_domains: body.allowed_domains } : {}),
    allowed_tools: body.allowed_tools ?? agent.allowed_tools ?? null,
    browser_profile: body.browser_profile ?? null,
    max_cost_usd: body.max_cost_usd ?? null,
    recording: body.recording ?? agent.recording ?? false,
    ...(origin ? { origin } : {}),
    ...(body.mcp_servers ? { mcp_servers: body.mcp_servers } : {}),
    ...(body.approvals ? { approvals: body.approvals } : {}),
    ...(body.verify_citations ? { verify_citations: body.verify_citations } : {}),
    ...(body.max_revisions !== undefined ? { max_revisions: body.max_revisions } : {}),
    ...(body.grader_model ? { grader_model: body.grader_model } : {}),
  };
}

/** Creates the conversation meta table: the object's schema steps call it. */
export function createMetaTable(sql: SqlStorage): void {
  sql.exec("CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)");
}

/** Typed access to the `meta` table. */
export class ConversationMeta {
  constructor(private readonly sql: SqlStorage) {}

  get<T>(key: string): T | null {
    const row = this.sql.exec<{ value: string }>("SELECT value FROM meta WHERE key = ?", key).toArray()[0];
    return row ? (JSON.parse(row.value) as T) : null;
  }

  set(key: string, value: unknown): void {
    this.sql.exec("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", key, JSON.stringify(value));
  }

  /** The conversation's info, or null before it was created. */
  info(): ConversationInfo | null {
    return this.get<ConversationInfo>("info");
  }

  /** The scheduled job this conversation runs for, if any (its runs are unattended). */
  job(): JobLink | null {
    return this.get<JobLink>("job");
  }

  /** The conversation's own HTTP tools. */
  httpTools(): StoredHttpTool[] {
    return Object.values(this.get<Record<string, StoredHttpTool>>("http_tools") ?? {});
  }

  /** Registers (or replaces) one of its HTTP tools; 409 when it would be one more than {@link MAX_CONVERSATION_HTTP_TOOLS}. */
  putHttpTool(tool: StoredHttpTool): RpcResult<null> {
    const tools = this.get<Record<string, StoredHttpTool>>("http_tools") ?? {};
    if (!(tool.name in tools) && Object.keys(tools).length >= MAX_CONVERSATION_HTTP_TOOLS)
      return fail(
        409,
        "too_many_tools",
        `A conversation holds at most ${MAX_CONVERSATION_HTTP_TOOLS} HTTP tools of its own; delete one (DELETE /v1/conversations/{id}/http-tools/{name}) before registering another, or register the tool for the whole workspace (POST /v1/tools).`,
      );
    tools[tool.name] = tool;
    this.set("http_tools", tools);
    return ok(null);
  }

  deleteHttpTool(name: string): boolean {
    const tools = this.get<Record<string, StoredHttpTool>>("http_tools") ?? {};
    if (!(name in tools)) return false;
    delete tools[name];
    this.set("http_tools", tools);
    return true;
  }
}

/** A first message's start as a title: its first line, at most DEFAULT_TITLE_CHARS characters. */
export function defaultTitle(content: string): string | null {
  const line = content.trim().split(/\r?\n/, 1)[0]?.replace(/\s+/g, " ").trim() ?? "";
  if (!line) return null;
  return line.length <= DEFAULT_TITLE_CHARS ? line : `${line.slice(0, DEFAULT_TITLE_CHARS - 1).trimEnd()}…`;
}
