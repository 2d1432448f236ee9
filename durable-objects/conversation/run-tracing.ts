/**
 * Tracing for a conversation's runs when OTEL_EXPORTER_OTLP_ENDPOINT is set: one exporter per
 * object instance, the GenAI tracer handed to the loop, and the run span sent when a run ends.
 */
import { readEnv } from "../engine/config/env";
import type { Run } from "../engine/store/run-store";
import { OtlpExporter } from "../engine/telemetry/exporter";
import { GenAiTracer } from "../engine/telemetry/gen-ai-tracer";
import { otlpConfig } from "../engine/telemetry/otlp-config";
import type { ConversationInfo } from "./conversation-meta";

/** Builds tracers for one conversation; inert when tracing is off. */
export class RunTracing {
  private readonly exporter: OtlpExporter | null;
  private readonly captureContent: boolean;
  private readonly provider: string;

  constructor(env: Env, waitUntil: (p: Promise<unknown>) => void) {
    const vars = readEnv(env);
    const config = otlpConfig(vars);
    this.exporter = config ? new OtlpExporter(config, waitUntil) : null;
    this.captureContent = config?.captureContent ?? false;
    this.provider = vars.OPENAI_API_KEY || !("AI" in env) ? "openai" : "cloudflare.workers_ai";
  }

  /** The tracer for the loop, or null when tracing is off. */
  tracer(info: ConversationInfo): GenAiTracer | null {
    if (!this.exporter) return null;
    return new GenAiTracer(this.exporter, {
      conversationId: info.id,
      workspaceId: info.workspace_id,
      provider: this.provider,
      captureContent: this.captureContent,
    });
  }

  /** Sends the run's own span (and flushes what is queued). */
  runEnded(info: ConversationInfo, run: Run, fallbackModel: string | null = null): void {
    this.tracer(info)?.runEnded({
      id: run.id,
      model: info.model,
      fallbackModel,
      status: run.status,
      startedAt: run.started_at ?? run.created_at,
      finishedAt: run.finished_at ?? Date.now(),
      usage: run.usage,
      error: run.error,
    });
  }
}
