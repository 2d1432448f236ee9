/**
 * The work behind one job run, as plain functions: start its conversation, read how it ended,
 * save the result to the workspace files and describe it to a webhook.
 */
import { workspaceStub } from "../addresses/workspace";
import { conversationStub } from "../addresses/conversation";
import type { Conversation, RunResult } from "../../schemas/api";
import type { JobSettings } from "../../schemas/jobs";
import { type JobLink, UNATTENDED_NOTE } from "../conversation/job-link";
import { workspaceFiles } from "../engine/files/files-factory";
import { compileOutputSchema } from "../engine/tools/finish";
import type { JobLedger, StoredRun } from "./job-ledger";
import { MEMORY_NOTE, memoryFor, researchSettings } from "./job-memory";
import type { JobRecord } from "./job-record";
import { renderOutputPath, slugify } from "./output-path";
import { localDateTime } from "./schedule";
import { attemptDelivery, excerptOf, type WebhookPayload } from "./webhook";

/** Which job a run belongs to. */
export interface JobScope {
  env: Env;
  workspaceId: string;
  jobId: string;
  /** The origin the job was created through; its runs' absolute file links use it. */
  origin?: string;
}

/** A failure recorded in the ledger. */
export interface RunError {
  code: string;
  message: string;
}

function conversation(scope: JobScope, conversationId: string): ReturnType<Env["CONVERSATIONS"]["get"]> {
  return conversationStub(scope.env, scope.workspaceId, conversationId);
}

function workspace(scope: JobScope): ReturnType<Env["WORKSPACES"]["get"]> {
  return workspaceStub(scope.env, scope.workspaceId);
}

/**
 * Creates the run's conversation in the job's workspace (listed like any other, so its events
 * stay inspectable) and queues the job's prompt; an error when that failed.
 */
export async function startConversation(
  scope: JobScope,
  settings: JobSettings,
  run: StoredRun,
  ledger: Pick<JobLedger, "reportsBefore">,
): Promise<RunError | null> {
  const id = run.conversation_id!;
  const link: JobLink = { job_id: scope.jobId, job_run_id: run.id, max_tokens: settings.max_tokens };
  const research = researchSettings(settings);
  try {
    // The job's own instructions, else the workspace's default ones; always the unattended note.
    const base = settings.instructions ?? (await workspace(scope).getAgentSettings()).instructions ?? null;
    const notes = research.memory_runs ? `${UNATTENDED_NOTE}\n\n${MEMORY_NOTE}` : UNATTENDED_NOTE;
    const stub = conversation(scope, id);
    const conv = (await stub.create(
      id,
      scope.workspaceId,
      {
        instructions: base ? `${base}\n\n${notes}` : notes,
        verify_citations: research.verify_citations,
        max_revisions: research.max_revisions,
        ...(research.grader_model ? { grader_model: research.grader_model } : {}),
        ...(settings.model ? { model: settings.model } : {}),
        ...(settings.fallback_models ? { fallback_models: settings.fallback_models } : {}),
        ...(settings.max_steps ? { max_steps: settings.max_steps } : {}),
        ...(settings.max_consecutive_failures
          ? { max_consecutive_failures: settings.max_consecutive_failures }
          : {}),
        ...(settings.output_schema ? { output_schema: settings.output_schema } : {}),
        // In a job's conversation the conversation's rules are the job's own (see job-link.ts).
        ...(settings.approvals ? { approvals: settings.approvals } : {}),
        ...(settings.browser_profile ? { browser_profile: settings.browser_profile } : {}),
        ...(settings.max_cost_usd ? { max_cost_usd: settings.max_cost_usd } : {}),
        ...(settings.mcp_servers ? { mcp_servers: settings.mcp_servers } : {}),
        ...(typeof settings.recording === "boolean" ? { recording: settings.recording } : {}),
        metadata: { job_id: scope.jobId, job_run_id: run.id },
      },
      { job: link, ...(scope.origin ? { origin: scope.origin } : {}) },
    )) as unknown as Conversation;
    await workspace(scope).addConversation(id, conv.created_at);
    // The first message: what earlier runs reported (memory_runs), then the job's prompt.
    const content = memoryFor(ledger, settings, run) + settings.prompt;
    const criteria = research.success_criteria ? { success_criteria: research.success_criteria } : {};
    const sent = await stub.sendMessage(
      content,
      `job:${run.id}`,
      run.conv_run_id ?? undefined,
      false,
      criteria,
    );
    return sent.ok ? null : { code: "start_failed", message: sent.message };
  } catch (err) {
    return { code: "start_failed", message: `The run could not start: ${(err as Error).message}` };
  }
}

/**
 * Where the run's conversation stands: its result once ended, `running`, or `missing` when the
 * conversation or its run was never created (the job object crashed while starting it).
 */
export async function runState(scope: JobScope, run: StoredRun): Promise<RunResult | "running" | "missing"> {
  if (!run.conversation_id || !run.conv_run_id) return "missing";
  const result = (await conversation(scope, run.conversation_id).runOutcome(
    run.conv_run_id,
  )) as unknown as RunResult | null;
  if (!result) return "missing";
  return ["succeeded", "failed", "cancelled"].includes(result.status) ? result : "running";
}

/**
 * What a succeeded run's review means for its ledger entry: the unverified citations, the grades,
 * the URLs cited (for later runs' memory) and — with fail_on_ungraded — the failure of a grading
 * that did not pass every criterion.
 */
export function reviewOutcome(settings: JobSettings, result: RunResult) {
  const grades = result.grades
    ? { passed: result.grades.filter((g) => g.pass).length, total: result.grades.length }
    : null;
  const failing =
    grades !== null && grades.passed < grades.total && researchSettings(settings).fail_on_ungraded;
  const error: RunError | null = failing
    ? {
        code: "criteria_failed",
        message: `${grades.total - grades.passed} of ${grades.total} success criteria failed: ${result
          .grades!.filter((g) => !g.pass)
          .map((g) => `${g.criterion} (${g.reason})`)
          .join("; ")}`.slice(0, 2_000),
      }
    : null;
  return {
    citationsUnverified: result.citations_unverified ?? null,
    grades,
    citedUrls: (result.citations ?? []).map((c) => c.url),
    ...(error ? { error } : {}),
  };
}

/** Tokens the conversation's run has used so far (null when unknown). */
export async function runUsage(scope: JobScope, run: StoredRun): Promise<RunResult["usage"] | null> {
  if (!run.conversation_id || !run.conv_run_id) return null;
  const result = (await conversation(scope, run.conversation_id)
    .runOutcome(run.conv_run_id)
    .catch(() => null)) as unknown as RunResult | null;
  return result?.usage ?? null;
}

/** Stops the conversation's run (best effort: it may have ended already). */
export async function cancelConversation(scope: JobScope, run: StoredRun): Promise<void> {
  if (!run.conversation_id) return;
  await conversation(scope, run.conversation_id)
    .cancel()
    .catch(() => {});
}

/** The file a result becomes: Markdown text, or JSON for jobs with an output schema. */
export function resultFile(
  settings: JobSettings,
  output: unknown,
): { body: string; type: string } | { error: RunError } {
  if (settings.output_schema) {
    const problems = compileOutputSchema(settings.output_schema).check(output);
    if (problems.length)
      return {
        error: {
          code: "output_invalid",
          message: `The result does not match output_schema: ${problems.join("; ")}`,
        },
      };
    return { body: `${JSON.stringify(output, null, 2)}\n`, type: "application/json" };
  }
  const text = typeof output === "string" ? output : `\`\`\`json\n${JSON.stringify(output, null, 2)}\n\`\`\``;
  if (!text.trim()) return { error: { code: "empty_result", message: "The run ended without a result." } };
  return { body: text.endsWith("\n") ? text : `${text}\n`, type: "text/markdown; charset=utf-8" };
}

/** Saves a run's result at its templated path; the path and an excerpt, or why it failed. */
export async function saveResult(
  scope: JobScope,
  settings: JobSettings,
  run: StoredRun,
  output: unknown,
): Promise<{ path: string; excerpt: string } | { error: RunError }> {
  const file = resultFile(settings, output);
  if ("error" in file) return file;
  const { date, time } = localDateTime(run.scheduled_at, settings.timezone);
  try {
    const path = renderOutputPath(settings.output_path, {
      job: slugify(settings.name),
      date,
      time,
      run: String(run.number),
    });
    const bytes = new TextEncoder().encode(file.body);
    await workspaceFiles(scope.env, scope.workspaceId).write(path, bytes, bytes.length, file.type);
    return { path, excerpt: excerptOf(file.body) };
  } catch (err) {
    return {
      error: { code: "save_failed", message: `The result could not be saved: ${(err as Error).message}` },
    };
  }
}

/** The JSON summary a webhook receives for a run that ended. */
export function webhookPayload(scope: JobScope, settings: JobSettings, run: StoredRun): WebhookPayload {
  return {
    type: `job.run.${run.status}`,
    job: { id: scope.jobId, name: settings.name },
    run: {
      id: run.id,
      number: run.number,
      trigger: run.trigger,
      scheduled_at: run.scheduled_at,
      started_at: run.started_at,
      ended_at: run.ended_at,
      conversation_id: run.conversation_id,
      tokens: run.tokens,
      citations_unverified: run.citations_unverified,
      grades_passed: run.grades_passed,
      grades_total: run.grades_total,
    },
    status: run.status,
    result_path: run.result_path,
    excerpt: run.excerpt,
    error: run.error,
  };
}

/** Makes every webhook attempt that is due and records its outcome in the ledger. */
export async function deliverDueWebhooks(
  scope: JobScope,
  record: JobRecord,
  ledger: JobLedger,
  opts: { now: () => number; allowPrivateNetwork: boolean; retryBaseMs: number },
): Promise<void> {
  for (const run of ledger.dueWebhooks(opts.now())) {
    if (!run.webhook) continue;
    const url = record.settings.webhook_url;
    if (!url) {
      // The URL was removed after the run ended: nothing to deliver to.
      const last_error = "webhook_url was removed before delivery.";
      ledger.setWebhook(run.id, { ...run.webhook, status: "failed", last_error, next_attempt_at: null });
      continue;
    }
    const delivery = await attemptDelivery({
      url,
      secret: record.webhook_secret,
      payload: webhookPayload(scope, record.settings, run),
      delivery: run.webhook,
      now: opts.now(),
      allowPrivateNetwork: opts.allowPrivateNetwork,
      retryBaseMs: opts.retryBaseMs,
      deliveryId: run.id,
    });
    ledger.setWebhook(run.id, delivery);
  }
}
