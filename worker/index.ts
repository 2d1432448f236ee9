/**
 * The Cirrus Worker: the HTTP API (Hono + zod-openapi) in front of one Durable Object per
 * conversation and one per workspace.
 */

import { readEnv } from "../durable-objects/engine/config/env";
import { secretStoreRoots } from "../durable-objects/engine/config/keys-config";
import { ConfigError } from "../durable-objects/engine/errors";
import { Notice } from "../schemas/events";
import { createApp } from "./app-factory";
import { requireAuth } from "./auth";
import { renderDocs } from "./docs-page";
import { errorBody, handleError, reportConfigError } from "./errors";
import "./custom-tools";
import { drainLegacyCors } from "./legacy-cors-drain";
import { requireDecodablePath } from "./path-encoding";
import agui from "./routes/agui";
import approvals from "./routes/approvals";
import browserProfiles from "./routes/browser-profiles";
import conversations from "./routes/conversations";
import fileLinks from "./routes/file-links";
import files from "./routes/files";
import httpTools from "./routes/http-tools";
import jobs from "./routes/jobs";
import keys from "./routes/keys";
import mcp from "./routes/mcp";
import mcpServers, { mcpOAuthCallback } from "./routes/mcp-servers";
import runs from "./routes/runs";
import secrets from "./routes/secrets";
import settings from "./routes/settings";
import recordings from "./routes/recordings";
import tabs from "./routes/tabs";
import usage from "./routes/usage";
import webhooks from "./routes/webhooks";
import widget from "./routes/widget";
import workspaces from "./routes/workspaces";
import { rearmJobs } from "./scheduled";
import { recordingConfig } from "../durable-objects/engine/config/recording-config";
import { sweepExpiredRecordings } from "../durable-objects/engine/recording/recording-store";
import { restrictPublishable } from "./widget-access";
import { widgetCors } from "./widget-cors";

export { BrowserFleetObject } from "../durable-objects/browser-fleet/browser-fleet-object";
export { ConversationObject } from "../durable-objects/conversation/conversation-object";
export { JobObject } from "../durable-objects/job/job-object";
export { JobRegistry } from "../durable-objects/job-registry/job-registry-object";
export { McpRegistry } from "../durable-objects/mcp-registry/mcp-registry-object";
export { McpSessionObject } from "../durable-objects/mcp-session/mcp-session-object";
export { OriginRegistry } from "../durable-objects/origin-registry/origin-registry-object";
export { WebhookObject } from "../durable-objects/webhook/webhook-object";
export { WorkspaceObject } from "../durable-objects/workspace/workspace-object";

const OPENAPI_INFO = {
  openapi: "3.1.0",
  info: {
    title: "Cirrus",
    version: "0.1.0",
    description: "A hosted AI agent: durable runs, resumable AG-UI event streams, tools and remote browsers.",
  },
};

const app = createApp();

// The configuration is checked before anything else, so an invalid var is a clear 503 naming it.
app.use("*", async (c, next) => {
  readEnv(c.env);
  await next();
});

// A malformed percent-encoding anywhere in the path is the caller's 400, before any route decodes it.
app.use("*", requireDecodablePath());

app.openAPIRegistry.registerComponent("securitySchemes", "bearer", { type: "http", scheme: "bearer" });
// The value of a CUSTOM `notice` event in the event streams (schemas/events.ts).
app.openAPIRegistry.register("Notice", Notice);
app.get("/", (c) => c.json({ name: "cirrus", docs: "/docs", openapi: "/openapi.json" }));
app.doc31("/openapi.json", { ...OPENAPI_INFO, security: [{ bearer: [] }] });
app.get("/docs", (c) => c.html(renderDocs(app.getOpenAPI31Document({ ...OPENAPI_INFO }) as never)));

app.route("/", fileLinks);
app.route("/", mcpOAuthCallback);
app.route("/", mcp);
app.use("/v1/*", widgetCors());
app.use("/v1/*", requireAuth());
app.use("/v1/*", restrictPublishable());
// Writes that seal a value need the secret store's key: a clear 503 naming SECRETS_KEY without it.
for (const path of [
  "/v1/secrets/*",
  "/v1/browser/profiles",
  "/v1/browser/profiles/*",
  "/v1/mcp/servers",
  "/v1/mcp/servers/*",
  "/v1/webhooks",
  "/v1/conversations/:id/browser/save",
])
  app.on(["POST", "PUT", "PATCH"], path, async (c, next) => {
    secretStoreRoots(c.env);
    await next();
  });
app.route("/v1", workspaces);
app.route("/v1", conversations);
app.route("/v1", runs);
app.route("/v1", approvals);
app.route("/v1", agui);
app.route("/v1", httpTools);
app.route("/v1", files);
app.route("/v1", settings);
app.route("/v1", secrets);
app.route("/v1", tabs);
app.route("/v1", recordings);
app.route("/v1", browserProfiles);
app.route("/v1", jobs);
app.route("/v1", keys);
app.route("/v1", usage);
app.route("/v1", webhooks);
app.route("/v1", mcpServers);
app.route("/v1", widget);

app.notFound((c) =>
  c.json(errorBody("not_found", `No route ${c.req.method} ${new URL(c.req.url).pathname}.`), 404),
);
app.onError(handleError);

export default {
  fetch: app.fetch,
  /** The Cron Trigger: re-arms every job whose alarm went missing (jobs run on their own alarms),
   * drains the retired global CORS list into the origins' objects, and deletes browser
   * recordings past RECORDING_TTL_DAYS. */
  scheduled: async (controller, env, _ctx) => {
    try {
      readEnv(env);
    } catch (err) {
      if (err instanceof ConfigError) return reportConfigError(err);
      throw err;
    }
    // Independent chores: one failing must not skip the other.
    const results = await Promise.allSettled([
      rearmJobs(env),
      drainLegacyCors(env),
      // The trigger's own time: what "expired" is measured against (a test sets it).
      sweepExpiredRecordings(env.FILES, controller.scheduledTime, recordingConfig(env).ttlMs),
    ]);
    const failed = results.find((r) => r.status === "rejected");
    if (failed) throw failed.reason;
  },
} satisfies ExportedHandler<Env>;
