/** A job's settings: defaults, partial updates and the checks that refuse bad ones with a clear reason. */
import type { CreateJob, JobSettings, UpdateJob } from "../../schemas/jobs";
import { compileOutputSchema } from "../engine/tools/finish";
import { researchSettings } from "./job-memory";
import { DEFAULT_JSON_OUTPUT_PATH, DEFAULT_OUTPUT_PATH, outputPathProblem } from "./output-path";
import { cronProblem, timeZoneProblem } from "./schedule";
import { webhookUrlProblem } from "./webhook";

/** Wall time of a run when the job does not say. */
export const DEFAULT_MAX_RUNTIME_SECONDS = 1800;

/** A refused setting: a stable code and a message naming what is wrong. */
export interface SettingsProblem {
  code: string;
  message: string;
}

/** The stored settings of a new job, defaults filled in. */
export function settingsFromCreate(body: CreateJob): JobSettings {
  return {
    name: body.name,
    prompt: body.prompt,
    schedule: body.schedule.trim(),
    timezone: body.timezone,
    instructions: body.instructions ?? null,
    model: body.model ?? null,
    fallback_models: body.fallback_models ?? null,
    output_path: body.output_path ?? (body.output_schema ? DEFAULT_JSON_OUTPUT_PATH : DEFAULT_OUTPUT_PATH),
    output_schema: body.output_schema ?? null,
    webhook_url: body.webhook_url ?? null,
    max_steps: body.max_steps ?? null,
    max_consecutive_failures: body.max_consecutive_failures ?? null,
    max_runtime_seconds: body.max_runtime_seconds ?? DEFAULT_MAX_RUNTIME_SECONDS,
    max_tokens: body.max_tokens ?? null,
    browser_profile: body.browser_profile ?? null,
    max_cost_usd: body.max_cost_usd ?? null,
    enabled: body.enabled,
    approvals: body.approvals ?? null,
    mcp_servers: body.mcp_servers ?? null,
    recording: body.recording ?? null,
    ...researchSettings(body),
  };
}

/** The settings after a partial update (`null` clears, absent keeps). */
export function applyUpdate(current: JobSettings, patch: UpdateJob): JobSettings {
  const next = { ...current };
  for (const [key, value] of Object.entries(patch)) {
    if (value !== undefined) (next as Record<string, unknown>)[key] = value;
  }
  if (patch.schedule) next.schedule = patch.schedule.trim();
  if (patch.output_path === null)
    next.output_path = next.output_schema ? DEFAULT_JSON_OUTPUT_PATH : DEFAULT_OUTPUT_PATH;
  return next;
}

/** The first thing wrong with a job's settings, or null. */
export function settingsProblem(s: JobSettings, allowPrivateNetwork: boolean): SettingsProblem | null {
  const cron = cronProblem(s.schedule);
  if (cron) return { code: "invalid_schedule", message: `schedule: ${cron}` };
  const zone = timeZoneProblem(s.timezone);
  if (zone) return { code: "invalid_timezone", message: `timezone: ${zone}` };
  const path = outputPathProblem(s.output_path);
  if (path) return { code: "invalid_output_path", message: path };
  if (s.output_schema) {
    try {
      compileOutputSchema(s.output_schema);
    } catch (err) {
      return { code: "invalid_output_schema", message: (err as Error).message };
    }
  }
  if (s.webhook_url) {
    const hook = webhookUrlProblem(s.webhook_url, allowPrivateNetwork);
    if (hook) return { code: "invalid_webhook_url", message: hook };
  }
  return null;
}
