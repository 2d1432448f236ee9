/**
 * Rotating SECRETS_KEY and FILES_SIGNING_SECRET (docs/configuration.md): what was sealed or signed
 * under an older key keeps working, the next write uses the new key, and without any key a request
 * that needs one is a 503 naming the variable.
 */
import { runInDurableObject } from "cloudflare:test";
import { env, exports } from "cloudflare:workers";
import { afterEach, describe, expect, it } from "vitest";
import { mcpRegistryStub } from "../../../durable-objects/addresses/mcp-registry";
import { workspaceStub } from "../../../durable-objects/addresses/workspace";
import { fileLinkRoots } from "../../../durable-objects/engine/config/keys-config";
import { LinkSigner } from "../../../durable-objects/engine/files/signed-links";
import {
  keyringOf,
  sealedKeyId,
  sealSecret,
  secretKeyring,
} from "../../../durable-objects/engine/secret-box";
import { McpRegistry } from "../../../durable-objects/mcp-registry/mcp-registry-object";
import { WorkspaceObject } from "../../../durable-objects/workspace/workspace-object";
import { callTool } from "../files-helpers";
import { ADMIN, api, createConversation, newWorkspaceKey } from "../helpers";

const vars = env as unknown as Record<string, unknown>;
const saved = { ...vars };
const keyId = async (root: string) => (await secretKeyring({ SECRETS_KEY: root })).current.id;
const sealedOf = (sql: SqlStorage, table: string, name: string) =>
  sql.exec<{ sealed: string }>(`SELECT sealed FROM ${table} WHERE name = ?`, name).one().sealed;

afterEach(() => {
  for (const name of ["ADMIN_TOKEN", "FILES_SIGNING_SECRET", "FILES_SIGNING_SECRET_PREVIOUS"])
    vars[name] = saved[name];
});

describe("rotating SECRETS_KEY", () => {
  it("keeps secrets and profiles readable, re-seals a secret on its next write, and reads pre-key-id values", async () => {
    await runInDurableObject(workspaceStub(env, "rotation"), async (_ws: WorkspaceObject, state) => {
      const at = (keys: Record<string, string>) => new WorkspaceObject(state, { ...env, ...keys });
      const one = at({ SECRETS_KEY: "key-one" });
      one.init("rotation", "Rotation");
      await one.putSecret("PW", { value: "hunter2", kind: "text" });
      expect((await one.createProfile("shop")).ok).toBe(true);
      const sql = state.storage.sql;
      expect(sealedKeyId(sealedOf(sql, "secrets", "PW"))).toBe(await keyId("key-one"));
      // A value sealed under the old ADMIN_TOKEN fallback, before values carried a key id.
      const legacy = await sealSecret(
        await keyringOf({ current: ADMIN, previous: [] }),
        "rotation/OLD",
        "s3cret",
      );
      sql.exec(
        "INSERT INTO secrets (name, sealed, updated_at) VALUES ('OLD', ?, 0)",
        legacy.slice(legacy.indexOf(":") + 1),
      );

      const two = at({ SECRETS_KEY: "key-two", SECRETS_KEY_PREVIOUS: "key-zero,key-one" });
      expect(await two.readSecret("PW")).toMatchObject({ value: "hunter2" });
      expect(await two.readSecret("OLD")).toMatchObject({ value: "s3cret" });
      expect(await two.loadProfile("shop")).toEqual({ cookies: [], storage: {} });
      await two.putSecret("PW", { value: "hunter3", kind: "text" });
      expect(sealedKeyId(sealedOf(sql, "secrets", "PW"))).toBe(await keyId("key-two"));
      expect(await at({ SECRETS_KEY: "key-two" }).readSecret("PW")).toMatchObject({ value: "hunter3" });
      await expect(at({ SECRETS_KEY: "key-two" }).loadProfile("shop")).rejects.toThrow(
        /SECRETS_KEY_PREVIOUS/,
      );
    });
  });

  it("keeps an MCP server's credentials usable after the rotation", async () => {
    await runInDurableObject(mcpRegistryStub(env, "rotation"), async (_r: McpRegistry, state) => {
      const one = new McpRegistry(state, { ...env, SECRETS_KEY: "key-one" });
      const created = await one.create({
        name: "crm",
        url: "http://127.0.0.1:9/mcp",
        headers: { Authorization: "Bearer mcp-credential" },
      });
      expect(created.ok).toBe(true);
      const two = new McpRegistry(state, { ...env, SECRETS_KEY: "key-two", SECRETS_KEY_PREVIOUS: "key-one" });
      expect((await two.forConversation(["crm"]))[0].headers).toEqual({
        Authorization: "Bearer mcp-credential",
      });
    });
  });

  it("answers a write that needs the key with 503 invalid_config naming SECRETS_KEY, without any value", async () => {
    const { key } = await newWorkspaceKey("no-keys");
    vars.ADMIN_TOKEN = "";
    const res = await api("/v1/secrets/PW", { method: "PUT", json: { value: "hunter2" }, token: key });
    expect(res.status).toBe(503);
    const { error } = (await res.json()) as { error: { code: string; message: string } };
    expect(error.code).toBe("invalid_config");
    expect(error.message).toContain("SECRETS_KEY is not set (nor ADMIN_TOKEN, its fallback)");
    expect(error.message).not.toContain(ADMIN);
  });
});

describe("rotating FILES_SIGNING_SECRET", () => {
  it("keeps a link made before the rotation valid until it expires, and after a second rotation", async () => {
    const conv = await createConversation("key-rotation");
    await callTool(conv, "opfs_write", { path: "rot/a.txt", content: "before" });
    const link = (await callTool(conv, "opfs_read", { path: "rot/a.txt", mode: "blob" })).result as {
      url: string;
      expires_at: number;
    };
    const token = link.url.slice(link.url.lastIndexOf("/") + 1);
    // The link was signed under the ADMIN_TOKEN fallback; setting the deployment's own key keeps it.
    vars.FILES_SIGNING_SECRET = "link-key-two";
    expect((await exports.default.fetch(link.url)).status).toBe(200);
    const signer = new LinkSigner(fileLinkRoots(env)!);
    expect(await signer.verify(token, link.expires_at + 1)).toBe("expired");
    const fresh = await signer.sign({
      ws: "default",
      path: "rot/a.txt",
      exp: Math.floor(Date.now() / 1000) + 60,
    });
    vars.FILES_SIGNING_SECRET = "link-key-three";
    vars.FILES_SIGNING_SECRET_PREVIOUS = "link-key-two";
    expect((await exports.default.fetch(`https://cirrus.test/files/${fresh}`)).status).toBe(200);
    vars.FILES_SIGNING_SECRET_PREVIOUS = "";
    expect((await exports.default.fetch(`https://cirrus.test/files/${fresh}`)).status).toBe(403);
  });

  it("answers a link with 503 invalid_config naming FILES_SIGNING_SECRET when no key is configured", async () => {
    vars.ADMIN_TOKEN = "";
    const res = await exports.default.fetch("https://cirrus.test/files/abc.def");
    expect(res.status).toBe(503);
    const { error } = (await res.json()) as { error: { code: string; message: string } };
    expect(error).toMatchObject({ code: "invalid_config" });
    expect(error.message).toContain("FILES_SIGNING_SECRET is not set");
    expect(error.message).not.toContain(ADMIN);
  });
});
