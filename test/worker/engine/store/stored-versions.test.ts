/**
 * Every Durable Object opens what it stored at each earlier schema version: the object is made
 * through the service, its SQLite is put back in an older shape (version 0 is an object stored
 * before versions existed), a new instance wakes on it, and the data must read as before with the
 * version current. A step that adds a version adds its fixture here (docs/architecture-storage.md).
 */
import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { conversationStub } from "../../../../durable-objects/addresses/conversation";
import { jobStub } from "../../../../durable-objects/addresses/job";
import { registryShard } from "../../../../durable-objects/addresses/job-registry";
import { mcpRegistryStub } from "../../../../durable-objects/addresses/mcp-registry";
import { originRegistryStub } from "../../../../durable-objects/addresses/origin-registry";
import { webhookStub } from "../../../../durable-objects/addresses/webhook";
import { workspaceStub } from "../../../../durable-objects/addresses/workspace";
import { ConversationObject } from "../../../../durable-objects/conversation/conversation-object";
import { CONVERSATION_MIGRATIONS } from "../../../../durable-objects/conversation/conversation-schema";
import { columnsOf, schemaVersion } from "../../../../durable-objects/engine/store/migrations";
import { JobObject } from "../../../../durable-objects/job/job-object";
import { JOB_MIGRATIONS } from "../../../../durable-objects/job/job-schema";
import {
  JOB_REGISTRY_MIGRATIONS,
  JobRegistry,
} from "../../../../durable-objects/job-registry/job-registry-object";
import { McpRegistry } from "../../../../durable-objects/mcp-registry/mcp-registry-object";
import { MCP_REGISTRY_MIGRATIONS } from "../../../../durable-objects/mcp-registry/mcp-registry-schema";
import {
  ORIGIN_REGISTRY_MIGRATIONS,
  OriginRegistry,
} from "../../../../durable-objects/origin-registry/origin-registry-object";
import { WebhookObject } from "../../../../durable-objects/webhook/webhook-object";
import { WEBHOOK_MIGRATIONS } from "../../../../durable-objects/webhook/webhook-schema";
import { WorkspaceObject } from "../../../../durable-objects/workspace/workspace-object";
import { WORKSPACE_MIGRATIONS } from "../../../../durable-objects/workspace/workspace-schema";
import { unwrap } from "../../../../worker/errors";
import { api, createConversation } from "../../helpers";
import { createJob, settledRun } from "../../job/jobs-helpers";

/** Turns an object's SQLite back into its unversioned shape: no record of any step. */
const unversioned = (sql: SqlStorage) => sql.exec("DROP TABLE _schema");

const tableNames = (sql: SqlStorage) =>
  sql
    .exec<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
    .toArray()
    .map((t) => t.name);

describe("objects stored at an earlier schema version", () => {
  it("a workspace from before key types, origins and titles keeps its keys and conversations", async () => {
    const stub = workspaceStub(env, "schema-v0");
    await runInDurableObject(stub, async (ws: WorkspaceObject, state) => {
      ws.init("schema-v0", "Old workspace");
      const key = unwrap(await ws.createKey("ci"));
      ws.addConversation("conv_old", 1000, "Kept title");
      ws.addJob("job_old", 2000);
      const sql = state.storage.sql;
      unversioned(sql);
      sql.exec(`ALTER TABLE api_keys DROP COLUMN type; ALTER TABLE api_keys DROP COLUMN allowed_origins;
        ALTER TABLE secrets DROP COLUMN kind; ALTER TABLE secrets DROP COLUMN digits;
        ALTER TABLE secrets DROP COLUMN period; ALTER TABLE secrets DROP COLUMN allowed_domains;
        ALTER TABLE conversations DROP COLUMN title; DROP TABLE settings_archive; DROP TABLE browser_profiles;
        CREATE TABLE rate_windows (key TEXT PRIMARY KEY, count INTEGER NOT NULL);`);

      const woke = new WorkspaceObject(state, env);
      expect(schemaVersion(sql)).toBe(WORKSPACE_MIGRATIONS.length);
      expect(woke.get()).toMatchObject({ id: "schema-v0", name: "Old workspace" });
      expect(woke.listKeys()).toEqual([
        {
          id: key.id,
          name: "ci",
          type: "secret",
          prefix: key.prefix,
          allowed_origins: [],
          created_at: key.created_at,
        },
      ]);
      expect(woke.hasConversation("conv_old")).toBe(true);
      expect(woke.hasJob("job_old")).toBe(true);
      expect(woke.listProfiles()).toEqual([]);
      expect(tableNames(sql)).not.toContain("rate_windows");
      expect(columnsOf(sql, "conversations").has("title")).toBe(true);
    });
  });

  it("a workspace at version 1 (before secret kinds) keeps its secrets, as text typable anywhere", async () => {
    const stub = workspaceStub(env, "schema-v1");
    await runInDurableObject(stub, async (ws: WorkspaceObject, state) => {
      ws.init("schema-v1", "Secrets");
      await ws.putSecret("LOGIN", { value: "hunter2", kind: "text" });
      const sql = state.storage.sql;
      sql.exec(`DELETE FROM _schema WHERE version > 1; ALTER TABLE secrets DROP COLUMN kind;
        ALTER TABLE secrets DROP COLUMN digits; ALTER TABLE secrets DROP COLUMN period;
        ALTER TABLE secrets DROP COLUMN allowed_domains;`);
      const woke = new WorkspaceObject(state, env);
      expect(schemaVersion(sql)).toBe(WORKSPACE_MIGRATIONS.length);
      expect(await woke.readSecret("LOGIN")).toMatchObject({
        kind: "text",
        value: "hunter2",
        allowed_domains: null,
      });
      expect(woke.secretNames()).toMatchObject([{ name: "LOGIN", kind: "text", allowed_domains: null }]);
    });
  });

  it("a conversation from before versions reads as it did", async () => {
    const id = await createConversation("echo", { title: "Stored early" });
    const stub = conversationStub(env, "default", id);
    await runInDurableObject(stub, (conv: ConversationObject, state) => {
      const before = conv.describe();
      expect(before?.title).toBe("Stored early");
      unversioned(state.storage.sql);
      const woke = new ConversationObject(state, env);
      expect(schemaVersion(state.storage.sql)).toBe(CONVERSATION_MIGRATIONS.length);
      expect(woke.describe()).toEqual(before);
    });
  });

  it("a conversation at version 1 (before research checks) gets its read log and keeps its runs", async () => {
    const id = await createConversation("echo");
    const sent = await api(`/v1/conversations/${id}/messages`, {
      method: "POST",
      json: { content: "hello", stream: false },
    });
    const { run_id } = (await sent.json()) as { run_id: string };
    const stub = conversationStub(env, "default", id);
    await runInDurableObject(stub, (conv: ConversationObject, state) => {
      const sql = state.storage.sql;
      const before = conv.runOutcome(run_id);
      expect(before).toMatchObject({ status: "succeeded", output: "echo: hello" });
      sql.exec("DELETE FROM _schema WHERE version > 1; DROP TABLE run_reads; DROP TABLE run_reviews;");
      const woke = new ConversationObject(state, env);
      expect(schemaVersion(sql)).toBe(CONVERSATION_MIGRATIONS.length);
      expect(tableNames(sql)).toEqual(expect.arrayContaining(["run_reads", "run_reviews"]));
      // Its runs were never reviewed as far as the new tables know: nothing checked.
      expect(woke.runOutcome(run_id)).toEqual({
        ...before,
        citations: null,
        uncited_quotes: null,
        citations_unverified: null,
        grades: null,
        grading_error: null,
        revisions: 0,
      });
    });
  });

  it("a job at version 1 (before research columns) keeps its ledger, with nothing checked", async () => {
    const job = await createJob({ name: "Ledger", prompt: "Say hi.", schedule: "@daily" });
    expect((await api(`/v1/jobs/${job.id}/run`, { method: "POST" })).status).toBe(202);
    const run = await settledRun(job.id);
    expect(run).toMatchObject({ status: "succeeded", citations_unverified: 0 });
    const stub = jobStub(env, "default", job.id);
    await runInDurableObject(stub, (_old: JobObject, state) => {
      const sql = state.storage.sql;
      sql.exec(`DELETE FROM _schema WHERE version > 1; ALTER TABLE job_runs DROP COLUMN citations_unverified;
        ALTER TABLE job_runs DROP COLUMN grades_passed; ALTER TABLE job_runs DROP COLUMN grades_total;
        ALTER TABLE job_runs DROP COLUMN cited_urls;`);
      const woke = new JobObject(state, env);
      expect(schemaVersion(sql)).toBe(JOB_MIGRATIONS.length);
      expect(columnsOf(sql, "job_runs").has("cited_urls")).toBe(true);
      const page = woke.listRuns(10, null);
      expect(page.ok && page.value.data).toEqual([{ ...run, citations_unverified: null }]);
    });
  });

  it("a job from before versions keeps its settings", async () => {
    const job = await createJob({ name: "Digest", prompt: "Summarise.", schedule: "0 7 * * 1-5" });
    const stub = jobStub(env, "default", job.id);
    await runInDurableObject(stub, (old: JobObject, state) => {
      const before = old.describe();
      expect(before?.name).toBe("Digest");
      unversioned(state.storage.sql);
      const woke = new JobObject(state, env);
      expect(schemaVersion(state.storage.sql)).toBe(JOB_MIGRATIONS.length);
      expect(woke.describe()).toEqual(before);
    });
  });

  it("an MCP registry from before approval defaults lists its servers, allowing their tools", async () => {
    const stub = mcpRegistryStub(env, "schema-v0");
    await runInDurableObject(stub, (_registry: McpRegistry, state) => {
      const sql = state.storage.sql;
      sql.exec(
        `INSERT INTO mcp_servers (id, name, url, headers, header_names, allowed_tools, status, error, tools, oauth,
          created_at, updated_at) VALUES ('mcp_old', 'docs', 'https://mcp.example/mcp', NULL, '[]', NULL, 'ready',
          NULL, '[]', NULL, 1000, 1000)`,
      );
      unversioned(sql);
      sql.exec("ALTER TABLE mcp_servers DROP COLUMN approval");
      const woke = new McpRegistry(state, env);
      expect(schemaVersion(sql)).toBe(MCP_REGISTRY_MIGRATIONS.length);
      expect(woke.list()).toMatchObject([
        { id: "mcp_old", name: "docs", url: "https://mcp.example/mcp", approval: "allow" },
      ]);
    });
  });

  it("a webhook object from before versions keeps its endpoints", async () => {
    const stub = webhookStub(env, "schema-v0");
    await runInDurableObject(stub, async (hooks: WebhookObject, state) => {
      const created = await hooks.create({ url: "https://hooks.example/in", events: ["run.succeeded"] });
      expect(created.ok).toBe(true);
      const before = hooks.list();
      unversioned(state.storage.sql);
      const woke = new WebhookObject(state, env);
      expect(schemaVersion(state.storage.sql)).toBe(WEBHOOK_MIGRATIONS.length);
      expect(woke.list()).toEqual(before);
    });
  });

  it("a job registry shard and an origin from before versions keep their entries", async () => {
    const shard = registryShard(env, 0);
    await runInDurableObject(shard, (registry: JobRegistry, state) => {
      registry.add("ws_a", "job_1");
      unversioned(state.storage.sql);
      const woke = new JobRegistry(state, env);
      expect(schemaVersion(state.storage.sql)).toBe(JOB_REGISTRY_MIGRATIONS.length);
      expect(woke.page(null, 100)).toContainEqual({ workspace_id: "ws_a", job_id: "job_1" });
    });
    const origin = originRegistryStub(env, "https://old.example");
    await runInDurableObject(origin, async (registry: OriginRegistry, state) => {
      registry.takeLegacy(["ws_a/key_1"]);
      unversioned(state.storage.sql);
      const woke = new OriginRegistry(state, env);
      expect(schemaVersion(state.storage.sql)).toBe(ORIGIN_REGISTRY_MIGRATIONS.length);
      expect(await woke.allows("https://old.example")).toBe(true);
    });
  });
});
