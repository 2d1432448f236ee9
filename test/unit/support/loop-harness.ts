/**
 * The agent loop's dependencies for tests in Node: the engine's real stores over Node's SQLite,
 * the real OpenAI-compatible model client against the scripted model server (the only stand-in),
 * and a small real tool set (tasks, ask_user, agent, a `sleep_tool` that records its calls, and
 * `read_page`, whose long page text makes results worth clearing). Saved results go to `saved`.
 */
import { z } from "zod";
import { CONVERSATION_MIGRATIONS } from "../../../durable-objects/conversation/conversation-schema";
import { pricedLedger } from "../../../durable-objects/engine/cost/priced-ledger";
import { savedResultPath } from "../../../durable-objects/engine/files/result-spill";
import { emptyRecord, StateHolder } from "../../../durable-objects/engine/loop/conversation-state";
import { ev } from "../../../durable-objects/engine/loop/event-builders";
import type { ContextSummary, LoopDeps, SummaryStore } from "../../../durable-objects/engine/loop/loop-deps";
import { runSubAgent } from "../../../durable-objects/engine/loop/sub-agent";
import { createOpenAIClient } from "../../../durable-objects/engine/model/openai-client";
import { ClearedResults } from "../../../durable-objects/engine/store/cleared-results";
import { EventLog } from "../../../durable-objects/engine/store/event-log";
import { MessageStore } from "../../../durable-objects/engine/store/message-store";
import { migrate } from "../../../durable-objects/engine/store/migrations";
import { RunStore } from "../../../durable-objects/engine/store/run-store";
import { createAskUserTool } from "../../../durable-objects/engine/tools/ask-user";
import { createAgentTool } from "../../../durable-objects/engine/tools/sub-agent";
import { createTaskTools } from "../../../durable-objects/engine/tools/tasks";
import { defineTool, ToolRegistry } from "../../../durable-objects/engine/tools/tool";
import type { CirrusEvent, LoggedEvent } from "../../../schemas/events";
import type { Turn } from "../../support/scripted-model-turns";
import { memoryStorage } from "./sql-storage";

/** What a test sees of one conversation's loop. */
export interface Harness {
  deps: LoopDeps;
  sql: SqlStorage;
  log: EventLog;
  runs: RunStore;
  messages: MessageStore;
  /** Tool names in the order `sleep_tool` ran them (its `label` argument). */
  toolRuns: string[];
  /** Every event written so far. */
  events(): LoggedEvent[];
  /** Workspace files the loop saved (whole results), by path. */
  saved: Map<string, string>;
  /** Queues a run for `content` and returns its id. */
  enqueue(content: string): string;
  abort: AbortController;
}

/** Options of {@link harness}. */
export interface HarnessOptions {
  maxSteps?: number;
  maxTokens?: number | null;
  contextTokens?: number;
  outputSchema?: Record<string, unknown> | null;
  subAgentMaxSteps?: number;
  clearAtTokens?: number;
  keepResults?: number;
  /** Called each time `read_page` runs (a test's clock seam, say). */
  onTool?: () => void;
}

/** The text `read_page` returns for a page: about `chars` characters, its last line naming the page. */
export function pageText(page: string, chars = 8_000): string {
  const line = `${page}: ${"words of the page ".repeat(6)}\n`;
  return `${line.repeat(Math.ceil(chars / line.length))}The last line of ${page}.`;
}

/** Each scope's context summary ("" is the conversation's own), kept in memory. */
function memorySummaries(): (scope: string) => SummaryStore {
  const summaries = new Map<string, ContextSummary>();
  return (scope) => ({
    get: () => summaries.get(scope) ?? null,
    set: (s) => summaries.set(scope, s),
  });
}

/** The task tools, ask_user, `read_page` (calls `opts.onTool`) and `sleep_tool` (records into `toolRuns`). */
function harnessTools(state: StateHolder, toolRuns: string[], opts: HarnessOptions): ToolRegistry {
  return new ToolRegistry([
    ...createTaskTools(state),
    createAskUserTool({ timeoutMs: 60_000 }),
    defineTool({
      name: "read_page",
      description: "Returns a long page.",
      parameters: z.object({ url: z.string().describe("The page.") }),
      execute: async ({ url }) => {
        opts.onTool?.();
        return { url, content: pageText(url) };
      },
    }),
    defineTool({
      name: "sleep_tool",
      description: "Records that it ran.",
      parameters: z.object({ label: z.string().describe("What to record.") }),
      execute: async ({ label }) => {
        toolRuns.push(label);
        return { ran: label };
      },
    }),
  ]);
}

/** The loop settings for `model`, with the harness's defaults where `opts` leaves them out. */
function harnessSettings(model: string, opts: HarnessOptions): LoopDeps["settings"] {
  return {
    model,
    instructions: null,
    maxSteps: opts.maxSteps ?? 10,
    maxTokens: opts.maxTokens ?? null,
    contextTokens: opts.contextTokens ?? 128_000,
    limits: { timeoutMs: 5_000, maxResultChars: 50_000, retryBudget: 3 },
    clearAtTokens: opts.clearAtTokens ?? 0,
    keepResults: opts.keepResults,
  };
}

/** A result spill that keeps every saved result in `saved`, by path. */
function mapSpill(saved: Map<string, string>): LoopDeps["spill"] {
  return {
    async save(conversationId, toolCallId, text) {
      const path = savedResultPath(conversationId, toolCallId);
      saved.set(path, text);
      return path;
    },
  };
}

/** Builds a conversation's loop deps talking to `model` (a script key) on the scripted server. */
export function harness(llmUrl: string, model: string, opts: HarnessOptions = {}): Harness {
  const storage = memoryStorage();
  migrate(storage, CONVERSATION_MIGRATIONS);
  const sql = storage.sql;
  const log = new EventLog(sql);
  const runs = new RunStore(sql);
  const messages = new MessageStore(sql);
  const summaryFor = memorySummaries();
  const toolRuns: string[] = [];
  const saved = new Map<string, string>();
  const abort = new AbortController();
  const emit = (runId: string | null, event: CirrusEvent) => void log.append(runId, event);
  const state = new StateHolder(emptyRecord(), (_record, delta) =>
    emit(runs.active()?.id ?? null, ev.stateDelta(delta)),
  );
  const tools = harnessTools(state, toolRuns, opts);
  const deps: LoopDeps = {
    conversationId: "conv_test",
    workspaceId: "ws_test",
    ledger: pricedLedger(runs, null),
    runs,
    log,
    messages,
    state,
    model: createOpenAIClient({
      apiKey: "sk-test",
      baseURL: `${llmUrl}/v1`,
      retry: { maxAttempts: 1, baseDelayMs: 1, maxDelayMs: 1 },
    }),
    tools,
    settings: harnessSettings(model, opts),
    spill: mapSpill(saved),
    signal: abort.signal,
    emit,
    summary: summaryFor(""),
    cleared: new ClearedResults(sql),
    summaryFor,
    outputSchema: opts.outputSchema ?? null,
  };
  tools.add(
    createAgentTool({
      maxSteps: opts.subAgentMaxSteps ?? 4,
      run: (spec, ctx) => runSubAgent(deps, ctx.runId!, spec),
    }),
  );
  return {
    deps,
    sql,
    log,
    runs,
    messages,
    toolRuns,
    saved,
    abort,
    events: () => [...log.scan(0, EVENT_TYPES)],
    enqueue: (content) => runs.enqueue(content, null).run.id,
  };
}

const EVENT_TYPES = [
  "RUN_STARTED",
  "RUN_FINISHED",
  "RUN_ERROR",
  "STEP_STARTED",
  "STEP_FINISHED",
  "TEXT_MESSAGE_START",
  "TEXT_MESSAGE_CONTENT",
  "TEXT_MESSAGE_END",
  "TOOL_CALL_START",
  "TOOL_CALL_ARGS",
  "TOOL_CALL_END",
  "TOOL_CALL_RESULT",
  "STATE_SNAPSHOT",
  "STATE_DELTA",
  "CUSTOM",
];

/** Gives a script key its turns on the scripted model server. */
export async function script(llmUrl: string, key: string, turns: Turn[]): Promise<void> {
  const res = await fetch(`${llmUrl}/__scripts/${encodeURIComponent(key)}`, {
    method: "PUT",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ turns }),
  });
  if (!res.ok) throw new Error(`script ${key}: ${res.status} ${await res.text()}`);
}

/** The request bodies the scripted model received for a key. */
export async function requests(
  llmUrl: string,
  key: string,
): Promise<{ messages: { role: string; content: unknown }[]; tools?: { function: { name: string } }[] }[]> {
  const res = await fetch(`${llmUrl}/__scripts/${encodeURIComponent(key)}/requests`);
  return ((await res.json()) as { requests: never[] }).requests;
}

/** The events of a type, unwrapped. */
export function eventsOf(h: Harness, type: string): CirrusEvent[] {
  return h
    .events()
    .map((e) => e.event)
    .filter((e) => e.type === type);
}

/** The events a sub-agent forwarded, unwrapped. */
export function subAgentEvents(h: Harness, id: string): CirrusEvent[] {
  return eventsOf(h, "CUSTOM")
    .map((e) => (e.type === "CUSTOM" ? (e.value as { sub_agent_id?: string; event?: CirrusEvent }) : {}))
    .filter((v) => v.sub_agent_id === id && v.event)
    .map((v) => v.event!);
}
