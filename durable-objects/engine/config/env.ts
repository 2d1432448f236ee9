/**
 * The one schema of the Worker's configuration: every var and secret Cirrus reads, with its
 * default. Unset or empty means the default; anything else must be valid, or the whole
 * configuration is refused with a {@link ConfigError} that names each bad variable.
 */
import { z } from "zod";
import { MAX_FALLBACK_MODELS } from "../../../schemas/create-conversation";
import { NOT_ONE_LINE } from "../../../schemas/patterns";
import { ConfigError } from "../errors";

const blank = (v: unknown) => (typeof v === "string" ? (v.trim() === "" ? undefined : v.trim()) : v);

/** A positive whole number (milliseconds, counts, bytes), optionally bounded. */
function count(fallback: number, max?: number) {
  const n = z.coerce
    .number({ error: "must be a number" })
    .int("must be a whole number")
    .positive("must be above 0");
  return z.preprocess(blank, (max ? n.max(max, `must be at most ${max}`) : n).default(fallback));
}

/** A whole number of 0 or more, with a default. */
function atLeastZero(fallback: number, max?: number) {
  const n = z.coerce
    .number({ error: "must be a number" })
    .int("must be a whole number")
    .min(0, "must be 0 or more");
  return z.preprocess(blank, (max ? n.max(max, `must be at most ${max}`) : n).default(fallback));
}

/** A text value with a default. */
const text = (fallback: string) => z.preprocess(blank, z.string().default(fallback));

/** An optional secret; its value is never repeated in an error. */
const secret = () => z.preprocess(blank, z.string().optional());

/** A comma-separated value as its trimmed, non-empty parts (any other value as it is). */
const commaSeparated = (v: unknown) =>
  typeof v === "string"
    ? v
        .split(",")
        .map((s) => s.trim())
        .filter(Boolean)
    : v;

/** Older secrets, comma-separated (a key rotation keeps them readable); none by default. */
const secretList = () => z.preprocess(commaSeparated, z.array(z.string()).default([]));

/** Model names, comma-separated, at most `max` (each one line, as a conversation's `model`); none by default. */
const modelList = (max: number) =>
  z.preprocess(
    commaSeparated,
    z
      .array(
        z
          .string()
          .max(200)
          .refine((s) => !NOT_ONE_LINE.test(s), "must name models on one line"),
      )
      .max(max, `must name at most ${max} models`)
      .default([]),
  );

/** An optional absolute http(s) URL, without its trailing slashes. */
const baseUrl = () =>
  z.preprocess(
    blank,
    z
      .url({ protocol: /^https?$/, error: "must be an absolute http(s) URL" })
      .transform((u) => u.replace(/\/+$/, ""))
      .optional(),
  );

/** `true`/`false` (also 1/0, yes/no, on/off), default false. */
const flag = () =>
  z.preprocess(
    (v) => (typeof v === "boolean" ? String(v) : blank(v)),
    z.stringbool({ error: "must be true or false" }).default(false),
  );

/** The Worker's vars and secrets, parsed. Every name is in docs/configuration.md's table (a test checks). */
export const EnvVars = z.object({
  ADMIN_TOKEN: secret(),
  OPENAI_API_KEY: secret(),
  SECRETS_KEY: secret(),
  SECRETS_KEY_PREVIOUS: secretList(),
  FILES_SIGNING_SECRET: secret(),
  FILES_SIGNING_SECRET_PREVIOUS: secretList(),
  OPENAI_BASE_URL: baseUrl(),
  OPENAI_MODEL: text("gpt-4o-mini"),
  MODEL_FALLBACKS: modelList(MAX_FALLBACK_MODELS),
  WORKERS_AI_MODEL: text("@cf/meta/llama-3.3-70b-instruct-fp8-fast"),
  MAX_STEPS: count(50),
  SUB_AGENT_MAX_STEPS: count(20),
  MAX_CONSECUTIVE_FAILURES: count(5, 500),
  TOOL_TIMEOUT_MS: count(120_000),
  MAX_RESULT_CHARS: count(50_000),
  TOOL_RETRY_BUDGET: count(3),
  MODEL_CONTEXT_TOKENS: count(128_000),
  MODEL_MAX_TOOLS: count(128),
  CONTEXT_CLEAR_AT_TOKENS: atLeastZero(6_000),
  CONTEXT_KEEP_RESULTS: atLeastZero(1, 100),
  MODEL_RETRY_ATTEMPTS: count(5),
  MODEL_RETRY_BASE_DELAY_MS: count(500),
  MODEL_RETRY_MAX_DELAY_MS: count(60_000),
  ASK_USER_TIMEOUT_MS: count(5 * 60_000),
  APPROVAL_TIMEOUT_MS: count(60 * 60_000),
  TAKEOVER_TIMEOUT_MS: count(15 * 60_000),
  SSE_HEARTBEAT_MS: count(15_000),
  RUN_WATCHDOG_MS: count(3_000),
  ALLOW_PRIVATE_NETWORK: flag(),
  EXAMPLE_TOOLS: flag(),
  BROWSER_IDLE_MS: count(60_000),
  BROWSER_MAX_SESSIONS: count(3),
  BROWSER_CONTEXTS_PER_SESSION: count(8),
  BROWSER_LAUNCH_INTERVAL_MS: count(20_000),
  BROWSER_DAILY_MINUTES: count(10),
  BROWSER_QUEUE_TIMEOUT_MS: count(60_000),
  BROWSER_SPARE_CONTEXTS: atLeastZero(1, 1),
  BROWSER_HOUR_PRICE_USD: z.preprocess(
    blank,
    z.coerce.number({ error: "must be a number" }).min(0, "must be 0 or more").default(0.09),
  ),
  LIVE_VIEW_MAX_FPS: count(10),
  PAGE_SCRIPT_TIMEOUT_MS: count(10_000, 60_000),
  BROWSER_UPLOAD_MAX_BYTES: count(10 * 1024 * 1024),
  BROWSER_DOWNLOAD_MAX_BYTES: count(25 * 1024 * 1024),
  BROWSER_DOWNLOADS_PER_RUN: count(20),
  WEB_FETCH_TIMEOUT_MS: count(30_000),
  WEB_FETCH_MAX_BYTES: count(5 * 1024 * 1024),
  WEB_FETCH_MAX_PDF_BYTES: count(20 * 1024 * 1024),
  WEB_FETCH_MAX_DOCX_BYTES: count(20 * 1024 * 1024),
  WEB_SEARCH_TIMEOUT_MS: count(15_000),
  PUBLIC_BASE_URL: baseUrl(),
  FILES_MAX_FILE_BYTES: count(100 * 1024 * 1024),
  FILES_MAX_WORKSPACE_BYTES: count(1024 * 1024 * 1024),
  FILES_LINK_TTL_SECONDS: count(15 * 60),
  JOB_POLL_MS: count(60_000),
  JOB_WEBHOOK_RETRY_BASE_MS: count(30_000),
  WEBHOOK_RETRY_BASE_MS: count(30_000),
  RECORDING_TTL_DAYS: count(30, 3650),
  RECORDING_MAX_BYTES: count(50 * 1024 * 1024),
  OTEL_EXPORTER_OTLP_ENDPOINT: baseUrl(),
  OTEL_EXPORTER_OTLP_HEADERS: secret(),
  OTEL_EXPORTER_OTLP_PROTOCOL: z.preprocess(
    blank,
    z
      .enum(["http/protobuf", "http/json"], {
        error: "must be http/protobuf or http/json (grpc is not supported)",
      })
      .default("http/protobuf"),
  ),
  OTEL_SERVICE_NAME: text("cirrus"),
  OTEL_CAPTURE_CONTENT: flag(),
  WIDGET_RATE_LIMIT_PER_KEY: count(600),
  WIDGET_RATE_LIMIT_PER_VISITOR: count(60),
  WIDGET_RATE_LIMIT_WINDOW_S: z.preprocess(
    blank,
    z.coerce
      .number()
      .refine((n) => n === 10 || n === 60, "must be 10 or 60 (the Rate Limiting binding's periods)")
      .default(60),
  ),
});
export type EnvVars = z.infer<typeof EnvVars>;

/** The variables that are secrets: set with `wrangler secret put`, never repeated in an error. */
export const SECRET_VARS: ReadonlySet<string> = new Set([
  "ADMIN_TOKEN",
  "OPENAI_API_KEY",
  "SECRETS_KEY",
  "SECRETS_KEY_PREVIOUS",
  "FILES_SIGNING_SECRET",
  "FILES_SIGNING_SECRET_PREVIOUS",
  "OTEL_EXPORTER_OTLP_HEADERS",
]);

/**
 * One variable read when a module loads, where throwing would stop the Worker from starting: its
 * value as {@link readEnv} parses it, or its default when the value is invalid (every request then
 * answers 503 invalid_config naming it, so the default is never what serves traffic).
 */
export function envVarAtLoad<K extends keyof EnvVars>(env: object, name: K): EnvVars[K] {
  const raw = (env as Record<string, unknown>)[name];
  const parsed = EnvVars.shape[name].safeParse(raw);
  return (parsed.success ? parsed.data : EnvVars.shape[name].parse(undefined)) as EnvVars[K];
}

/** Parses the Worker's environment (bindings and unknown names are ignored); throws {@link ConfigError}. */
export function readEnv(env: object): EnvVars {
  const parsed = EnvVars.safeParse(env);
  if (parsed.success) return parsed.data;
  const raw = env as Record<string, unknown>;
  const problems = parsed.error.issues.map((issue) => {
    const name = String(issue.path[0]);
    const got = SECRET_VARS.has(name) ? "" : ` (got ${JSON.stringify(String(raw[name]))})`;
    return `${name} ${issue.message}${got}`;
  });
  throw new ConfigError("invalid_config", `Invalid configuration: ${problems.join("; ")}.`);
}
