/** The agent runtime's settings, from the one environment schema (./env.ts). */
import type { RetryPolicy } from "../model/retry";
import type { RunnerLimits } from "../tools/tool-runner";
import { readEnv } from "./env";

/** Every tunable of the runtime, in one place. */
export interface RuntimeConfig {
  defaultModel: string;
  /** Models a turn moves on to when the model fails transiently (MODEL_FALLBACKS), unless a conversation names its own. */
  fallbackModels: string[];
  maxSteps: number;
  /** Model turns in a row whose tool calls all failed before a run fails `too_many_failures`. */
  maxConsecutiveFailures: number;
  limits: RunnerLimits;
  contextTokens: number;
  /** The most tools one model request lists; past it MCP and HTTP tools are searched for (tool-offer.ts). */
  maxTools: number;
  /** Clear old bulky tool results once a request would pass this many tokens (0: never). */
  clearAtTokens: number;
  /** Bulky tool results a clearing step keeps. */
  keepResults: number;
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

/** Reads the runtime configuration from the Worker's environment; throws ConfigError when invalid. */
export function runtimeConfig(env: object): RuntimeConfig {
  const v = readEnv(env);
  return {
    defaultModel: v.OPENAI_MODEL,
    fallbackModels: v.MODEL_FALLBACKS,
    maxSteps: v.MAX_STEPS,
    maxConsecutiveFailures: v.MAX_CONSECUTIVE_FAILURES,
    limits: {
      timeoutMs: v.TOOL_TIMEOUT_MS,
      maxResultChars: v.MAX_RESULT_CHARS,
      retryBudget: v.TOOL_RETRY_BUDGET,
    },
    contextTokens: v.MODEL_CONTEXT_TOKENS,
    maxTools: v.MODEL_MAX_TOOLS,
    clearAtTokens: v.CONTEXT_CLEAR_AT_TOKENS,
    keepResults: v.CONTEXT_KEEP_RESULTS,
    askUserTimeoutMs: v.ASK_USER_TIMEOUT_MS,
    takeoverTimeoutMs: v.TAKEOVER_TIMEOUT_MS,
    approvalTimeoutMs: v.APPROVAL_TIMEOUT_MS,
    retry: {
      maxAttempts: v.MODEL_RETRY_ATTEMPTS,
      baseDelayMs: v.MODEL_RETRY_BASE_DELAY_MS,
      maxDelayMs: v.MODEL_RETRY_MAX_DELAY_MS,
    },
    heartbeatMs: v.SSE_HEARTBEAT_MS,
    watchdogMs: v.RUN_WATCHDOG_MS,
    subAgentMaxSteps: v.SUB_AGENT_MAX_STEPS,
    workersAiModel: v.WORKERS_AI_MODEL,
  };
}
