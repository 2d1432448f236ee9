/**
 * One trace per run, following the OpenTelemetry GenAI semantic conventions: an `invoke_agent`
 * span for the run, a `chat <model>` span per model turn and an `execute_tool <name>` span per
 * tool call; a sub-agent's `invoke_agent` span hangs under its tool call. Span ids of the run and
 * of tool calls derive from their ids, so a run resumed elsewhere stays one trace. Message and
 * tool content only with OTEL_CAPTURE_CONTENT=true.
 */
import type { ModelTurn, ToolCall } from "../model/model-types";
import type { ToolOutcome } from "../tools/tool-runner";
import type { OtlpExporter } from "./exporter";
import { type AttrValue, randomSpanId, type SpanRecord, stableSpanId, traceIdOf } from "./span-record";

/** Longest content attribute (characters); longer content is cut with a marker. */
export const MAX_CONTENT_CHARS = 32_000;

/** What the agent loop reports to tracing (absent when tracing is off). */
export interface LoopTracer {
  /** A model turn starts; call the result when it ends (with its turn, or an error). */
  chat(runId: string, model: string, messages: unknown[]): (turn: ModelTurn | null, error?: unknown) => void;
  /** A tool call starts; call the result with its outcome. */
  tool(runId: string, call: ToolCall): (outcome: ToolOutcome) => void;
  /** A sub-agent starts inside its tool call: its tracer, and the end of its span. */
  subAgent(
    runId: string,
    spec: { id: string; type: string },
  ): { tracer: LoopTracer; end: (answer: string | null, error?: unknown) => void };
}

/** What every span of a conversation carries. */
export interface TraceContext {
  conversationId: string;
  workspaceId: string;
  provider: string;
  captureContent: boolean;
}

/** A run's outcome as the run span shows it. */
export interface RunSpanInfo {
  id: string;
  model: string;
  /** The fallback model the run moved on to (model/fallback.ts), when it did. */
  fallbackModel?: string | null;
  status: string;
  startedAt: number;
  finishedAt: number;
  usage: { input_tokens: number; output_tokens: number; cost_usd: number | null };
  error: { code: string; message: string } | null;
}

const cut = (s: string) =>
  s.length > MAX_CONTENT_CHARS ? `${s.slice(0, MAX_CONTENT_CHARS)}…[truncated]` : s;
const errorText = (e: unknown) => (e instanceof Error ? e.message : String(e));

/** The run span's id (the parent of the run's turns and tool calls). */
export const runSpanId = (runId: string) => stableSpanId(runId, "run");

/** Builds the GenAI spans and hands them to the exporter. */
export class GenAiTracer implements LoopTracer {
  constructor(
    private readonly exporter: OtlpExporter,
    private readonly ctx: TraceContext,
    /** The span the turns and calls hang under: the run's, or a sub-agent's. */
    private readonly parentOf: (runId: string) => string = runSpanId,
    private readonly agentName = "cirrus",
  ) {}

  private base(runId: string): Record<string, AttrValue> {
    return {
      "gen_ai.provider.name": this.ctx.provider,
      "gen_ai.conversation.id": this.ctx.conversationId,
      "gen_ai.agent.name": this.agentName,
      "cirrus.run.id": runId,
      "cirrus.workspace.id": this.ctx.workspaceId,
    };
  }

  private emit(runId: string, s: Omit<SpanRecord, "traceId">, now = false): void {
    this.exporter.add({ traceId: traceIdOf(runId), ...s }, now);
  }

  chat(runId: string, model: string, messages: unknown[]) {
    const startMs = Date.now();
    const input = this.ctx.captureContent ? cut(JSON.stringify(messages)) : null;
    return (turn: ModelTurn | null, error?: unknown) => {
      const attributes: Record<string, AttrValue> = {
        ...this.base(runId),
        "gen_ai.operation.name": "chat",
        "gen_ai.request.model": model,
      };
      if (input) attributes["gen_ai.input.messages"] = input;
      if (turn) {
        attributes["gen_ai.response.model"] = turn.responseModel ?? model;
        attributes["gen_ai.usage.input_tokens"] = turn.usage.input_tokens;
        attributes["gen_ai.usage.output_tokens"] = turn.usage.output_tokens;
        if (turn.finishReason) attributes["gen_ai.response.finish_reasons"] = [turn.finishReason];
        if (this.ctx.captureContent) {
          const out = { role: "assistant", content: turn.text || null, tool_calls: turn.toolCalls };
          attributes["gen_ai.output.messages"] = cut(JSON.stringify([out]));
        }
      } else attributes["error.type"] = error instanceof Error ? error.name : "error";
      this.emit(runId, {
        spanId: randomSpanId(),
        parentSpanId: this.parentOf(runId),
        name: `chat ${model}`,
        kind: 2,
        startMs,
        endMs: Date.now(),
        attributes,
        status: turn ? { code: 0 } : { code: 2, message: errorText(error) },
      });
    };
  }

  tool(runId: string, call: ToolCall) {
    const startMs = Date.now();
    return (outcome: ToolOutcome) => {
      const attributes: Record<string, AttrValue> = {
        ...this.base(runId),
        "gen_ai.operation.name": "execute_tool",
        "gen_ai.tool.name": call.function.name,
        "gen_ai.tool.call.id": call.id,
        "gen_ai.tool.type": "function",
      };
      const failed = outcome.kind === "result" && outcome.isError;
      if (failed) attributes["error.type"] = outcome.code ?? "tool_error";
      if (this.ctx.captureContent) {
        attributes["gen_ai.tool.call.arguments"] = cut(call.function.arguments);
        if ("content" in outcome) attributes["gen_ai.tool.call.result"] = cut(outcome.content);
      }
      this.emit(runId, {
        spanId: stableSpanId(runId, "tool", call.id),
        parentSpanId: this.parentOf(runId),
        name: `execute_tool ${call.function.name}`,
        kind: 0,
        startMs,
        endMs: Date.now(),
        attributes,
        status: failed ? { code: 2, message: outcome.message ?? outcome.code ?? "tool error" } : { code: 0 },
      });
    };
  }

  subAgent(runId: string, spec: { id: string; type: string }) {
    const startMs = Date.now();
    const spanId = stableSpanId(runId, "sub", spec.id);
    const tracer = new GenAiTracer(this.exporter, this.ctx, () => spanId, spec.type);
    return {
      tracer,
      end: (answer: string | null, error?: unknown) => {
        const attributes: Record<string, AttrValue> = {
          ...tracer.base(runId),
          "gen_ai.operation.name": "invoke_agent",
          "gen_ai.agent.id": spec.id,
        };
        if (answer === null) attributes["error.type"] = error instanceof Error ? error.name : "error";
        this.emit(runId, {
          spanId,
          parentSpanId: stableSpanId(runId, "tool", spec.id),
          name: "invoke_agent",
          kind: 0,
          startMs,
          endMs: Date.now(),
          attributes,
          status: answer === null ? { code: 2, message: errorText(error) } : { code: 0 },
        });
      },
    };
  }

  /** The run's own span, sent when the run ends (with everything still queued). */
  runEnded(run: RunSpanInfo): void {
    const attributes: Record<string, AttrValue> = {
      ...this.base(run.id),
      "gen_ai.operation.name": "invoke_agent",
      "gen_ai.request.model": run.model,
      "gen_ai.usage.input_tokens": run.usage.input_tokens,
      "gen_ai.usage.output_tokens": run.usage.output_tokens,
      "cirrus.run.status": run.status,
    };
    if (run.fallbackModel) attributes["cirrus.fallback_model"] = run.fallbackModel;
    if (run.usage.cost_usd !== null) attributes["cirrus.cost_usd"] = run.usage.cost_usd;
    const failed = run.status === "failed";
    if (failed && run.error) attributes["error.type"] = run.error.code;
    this.emit(
      run.id,
      {
        spanId: runSpanId(run.id),
        parentSpanId: null,
        name: "invoke_agent",
        kind: 0,
        startMs: run.startedAt,
        endMs: run.finishedAt,
        attributes,
        status: failed ? { code: 2, message: run.error?.message ?? "failed" } : { code: 0 },
      },
      true,
    );
  }
}
