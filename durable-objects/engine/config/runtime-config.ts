/** Runtime limits read from environment variables, with safe defaults. */

import { APPROVAL_TIMEOUT_MS } from "../approvals/approvals";
import { DEFAULT_RETRY_POLICY, type RetryPolicy } from "../model/retry";
import { ASK_USER_TIMEOUT_MS } from "../tools/ask-user";
import { TAKEOVER_TIMEOUT_MS } from "../tools/takeover";
import {
  DEFAULT_MAX_RESULT_CHARS,
  DEFAULT_RETRY_BUDGET,
  DEFAULT_TOOL_TIMEOUT_MS,
  type RunnerLimits,
} from "../tools/tool-runner";

/** Every tunable of the runtime, in one place. */
export interface RuntimeConfig {
  defaultModel: string;
  maxSteps: number;
  limits: RunnerLimits;
  contextTokens: number;
  askUserTimeoutMs: number;
  /** How long request_takeover waits for the person to hand the tab back. */
  takeoverTimeoutMs: number;
  /** How long a tool call waits for a person's approval before it is denied (`timeout`). */
  approvalTimeoutMs: number;
  retry: RetryPolicy;
  heartbeatMs: number;
  /** A running run re-arms an alarm this far ahead, so a crash mid-run is picked up again. */
  watchdogMs: number;
  workersAiModel: string;
  subAgentMaxSteps: number;
}

type Vars = Record<string, unknown>;

function num(env: Vars, name: string, fallback: number): number {
  const raw = env[name];
  if (typeof raw !== "string" || raw.trim() === "") return fallback;
  const n = Number(raw);
  return Number.isFinite(n) && n > 0 ? n : fallback;
}

/** Reads the runtime configuration from the Worker's environment. */
export function runtimeConfig(env: Vars): RuntimeConfig {
  return {
    defaultModel: typeof env.OPENAI_MODEL === "string" && env.OPENAI_MODEL ? env.OPENAI_MODEL : "gpt-4o-mini",
    maxSteps: num(env, "MAX_STEPS", 50),
    limits: {
      timeoutMs: num(env, "TOOL_TIMEOUT_MS", DEFAULT_TOOL_TIMEOUT_MS),
      maxResultChars: num(env, "MAX_RESULT_CHARS", DEFAULT_MAX_RESULT_CHARS),
      retryBudget: num(env, "TOOL_RETRY_BUDGET", DEFAULT_RETRY_BUDGET),
    },
    contextTokens: num(env, "MODEL_CONTEXT_TOKENS", 128_000),
    askUserTimeoutMs: num(env, "ASK_USER_TIMEOUT_MS", ASK_USER_TIMEOUT_MS),
    takeoverTimeoutMs: num(env, "TAKEOVER_TIMEOUT_MS", TAKEOVER_TIMEOUT_MS),
    approvalTimeoutMs: num(env, "APPROVAL_TIMEOUT_MS", APPROVAL_TIMEOUT_MS),
    retry: {
      maxAttempts: num(env, "MODEL_RETRY_ATTEMPTS", DEFAULT_RETRY_POLICY.maxAttempts),
      baseDelayMs: num(env, "MODEL_RETRY_BASE_DELAY_MS", DEFAULT_RETRY_POLICY.baseDelayMs),
      maxDelayMs: num(env, "MODEL_RETRY_MAX_DELAY_MS", DEFAULT_RETRY_POLICY.maxDelayMs),
    },
    heartbeatMs: num(env, "SSE_HEARTBEAT_MS", 15_000),
    watchdogMs: num(env, "RUN_WATCHDOG_MS", 30_000),
    subAgentMaxSteps: num(env, "SUB_AGENT_MAX_STEPS", 20),
    workersAiModel:
      typeof env.WORKERS_AI_MODEL === "string" && env.WORKERS_AI_MODEL
        ? env.WORKERS_AI_MODEL
        : "@cf/meta/llama-3.3-70b-instruct-fp8-fast",
  };
}
