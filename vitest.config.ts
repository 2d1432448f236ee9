import { cloudflareTest } from "@cloudflare/vitest-plugin";
import { defineConfig } from "vitest/config";
import { buildWeb } from "./scripts/build-web.ts";
import {
  dropExpectedRuntimeLogs,
  isExpectedConsoleLog,
  quietSourcemapWarnings,
} from "./test/support/quiet-output.ts";

// wrangler.toml serves web/dist as assets; build it before any project starts a Worker.
buildWeb();

/** Small widget rate limits so the 429 paths are testable: the vars and the bindings agree. */
const WIDGET_LIMITS = { perKey: 60, perVisitor: 25, windowS: 60 as const };

/** Bindings every workerd test sees: the scripted model and local-only network rules. */
const testBindings = (llmUrl: string, pageUrl: string) => ({
  ADMIN_TOKEN: "test-admin-token",
  OPENAI_API_KEY: "sk-test",
  OPENAI_BASE_URL: `${llmUrl}/v1`,
  OPENAI_MODEL: "echo",
  ALLOW_PRIVATE_NETWORK: "true",
  TEST_PAGE_URL: pageUrl,
  TEST_LLM_URL: llmUrl,
  // Short timers so timeout paths are testable without waiting minutes.
  MODEL_RETRY_BASE_DELAY_MS: "20",
  MODEL_RETRY_MAX_DELAY_MS: "3000",
  ASK_USER_TIMEOUT_MS: "1500",
  TAKEOVER_TIMEOUT_MS: "6000",
  APPROVAL_TIMEOUT_MS: "4000",
  SSE_HEARTBEAT_MS: "300",
  RUN_WATCHDOG_MS: "1000",
  SUB_AGENT_MAX_STEPS: "4",
  EXAMPLE_TOOLS: "true",
  // Workspace files: links need an origin; limits small enough to reach in a test.
  PUBLIC_BASE_URL: "https://cirrus.test",
  FILES_MAX_FILE_BYTES: String(32 * 1024 * 1024),
  FILES_MAX_WORKSPACE_BYTES: String(64 * 1024 * 1024),
  // Browser recordings: a size limit a test page passes in a few seconds.
  RECORDING_MAX_BYTES: String(1024 * 1024),
  WEB_FETCH_TIMEOUT_MS: "3000",
  WEB_SEARCH_TIMEOUT_MS: "3000",
  // Long enough for a one-line script on a loaded CI machine, short enough for the timeout tests.
  PAGE_SCRIPT_TIMEOUT_MS: "5000",
  // Files through the browser: caps small enough to pass in a test.
  BROWSER_UPLOAD_MAX_BYTES: String(1024 * 1024),
  BROWSER_DOWNLOAD_MAX_BYTES: String(64 * 1024),
  BROWSER_DOWNLOADS_PER_RUN: "3",
  // The browser fleet: two browsers of two contexts each (so sharing and the queue are reached),
  // no launch pacing, a budget no test reaches unless it sets the day's use, a short queue wait.
  BROWSER_MAX_SESSIONS: "2",
  BROWSER_CONTEXTS_PER_SESSION: "2",
  BROWSER_LAUNCH_INTERVAL_MS: "1",
  BROWSER_DAILY_MINUTES: "100000",
  BROWSER_QUEUE_TIMEOUT_MS: "4000",
  // Scheduled jobs: webhook retries 100 ms, 200 ms, … apart.
  JOB_WEBHOOK_RETRY_BASE_MS: "100",
  // Run webhooks: retries 100 ms, 200 ms, … apart.
  WEBHOOK_RETRY_BASE_MS: "100",
  // Small widget rate limits so the 429 path is testable.
  WIDGET_RATE_LIMIT_PER_KEY: String(WIDGET_LIMITS.perKey),
  WIDGET_RATE_LIMIT_PER_VISITOR: String(WIDGET_LIMITS.perVisitor),
  WIDGET_RATE_LIMIT_WINDOW_S: String(WIDGET_LIMITS.windowS),
});

/** The Rate Limiting bindings of wrangler.toml, with the test limits above. */
const testRateLimits = {
  WIDGET_KEY_LIMITER: {
    namespace_id: "7201",
    simple: { limit: WIDGET_LIMITS.perKey, period: WIDGET_LIMITS.windowS },
  },
  WIDGET_VISITOR_LIMITER: {
    namespace_id: "7202",
    simple: { limit: WIDGET_LIMITS.perVisitor, period: WIDGET_LIMITS.windowS },
  },
};

/** A workerd project: the Worker from wrangler.toml with the test bindings (and extra ones). */
function workersProject(
  name: string,
  include: string[],
  exclude: string[],
  extra: (otlpUrl: string) => Record<string, string> = () => ({}),
) {
  return {
    plugins: [
      cloudflareTest(({ inject }) => ({
        wrangler: { configPath: "./wrangler.toml" },
        remoteBindings: false,
        // workerd's INFO logs (every exception a test provokes on purpose, with its stack) stay off.
        verbose: false,
        miniflare: {
          bindings: {
            ...testBindings(inject<string>("llmUrl"), inject<string>("pageUrl")),
            ...extra(inject<string>("otlpUrl")),
          },
          ratelimits: testRateLimits,
        },
      })),
    ],
    test: {
      name,
      include,
      exclude,
      globalSetup: ["test/support/global-setup.ts"],
      // Off for workerd: with it on, a fresh runner is sent the whole cached import graph of its
      // file in one message, which passes workerd's 1 MiB WebSocket limit and kills the runner.
      fsModuleCache: false,
      // One workerd runner per vitest worker, reused across files: the Worker's module graph is
      // fetched and evaluated once, not once per file. fresh-storage.ts wipes Durable Objects
      // before each file, so no file sees another's state.
      isolate: false,
      setupFiles: ["test/worker/fresh-storage.ts"],
      testTimeout: 30_000,
      hookTimeout: 30_000,
    },
  };
}

// A passing run prints its results: the few known lines of expected shutdowns and logs stay out.
dropExpectedRuntimeLogs();

export default defineConfig({
  // Inline projects extend this file (Vitest 5): the plugin and onConsoleLog apply to every project.
  plugins: [quietSourcemapWarnings()],
  test: {
    onConsoleLog: (log) => !isExpectedConsoleLog(log),
    projects: [
      {
        test: {
          name: "unit",
          include: ["test/unit/**/*.test.ts"],
          environment: "node",
          isolate: false,
          // node:sqlite (the unit tests' stand-in for SQLite storage) warns it is experimental.
          execArgv: ["--disable-warning=ExperimentalWarning"],
        },
      },
      workersProject("workers", ["test/worker/**/*.test.ts"], ["test/worker/telemetry/**"]),
      // Tracing on: the same tests export to the local OTLP receiver, in protobuf and in JSON.
      workersProject("telemetry", ["test/worker/telemetry/**/*.test.ts"], [], (otlp) => ({
        OTEL_EXPORTER_OTLP_ENDPOINT: otlp,
        OTEL_EXPORTER_OTLP_HEADERS: "x-collector-key=otel%20key%3D1,x-tenant=cirrus",
      })),
      workersProject("telemetry-json", ["test/worker/telemetry/**/*.test.ts"], [], (otlp) => ({
        OTEL_EXPORTER_OTLP_ENDPOINT: otlp,
        OTEL_EXPORTER_OTLP_HEADERS: "x-collector-key=otel%20key%3D1,x-tenant=cirrus",
        OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
        OTEL_CAPTURE_CONTENT: "true",
        OTEL_SERVICE_NAME: "cirrus-json",
      })),
      {
        test: {
          name: "e2e",
          include: ["test/e2e/**/*.test.ts"],
          environment: "node",
          testTimeout: 60_000,
          hookTimeout: 120_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
