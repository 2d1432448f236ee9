import { resolve } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { MCP_TEST_TOKEN, type McpServerUrls, startMcpServers } from "../support/mcp-servers";
import { signedIn } from "./support/signed-in";
import { ADMIN, cirrusApi, type Stack, scriptWidget, startStack } from "./support/stack";

const DOCS = resolve(import.meta.dirname, "../../docs");

let stack: Stack;
let mcp: { urls: McpServerUrls; close(): Promise<void> };
let sk: string;
const contexts: BrowserContext[] = [];

async function mcpPage(): Promise<{ ctx: BrowserContext; page: Page }> {
  const page = await signedIn(stack, sk, { contexts, viewport: { width: 1200, height: 820 } });
  const ctx = page.context();
  await page.getByRole("link", { name: "MCP", exact: true }).click();
  await page.getByRole("heading", { name: "MCP servers" }).waitFor();
  return { ctx, page };
}

const row = (page: Page, name: string) => page.locator(`tr[data-server-name="${name}"]`);

beforeAll(async () => {
  [stack, mcp] = await Promise.all([startStack(), startMcpServers()]);
  const ws = await cirrusApi<{ id: string }>(stack, "/v1/workspaces", ADMIN, {
    method: "POST",
    json: { name: "mcp" },
  });
  sk = (
    await cirrusApi<{ key: string }>(stack, `/v1/workspaces/${ws.id}/keys`, ADMIN, {
      method: "POST",
      json: { name: "owner" },
    })
  ).key;
});

afterEach(async () => {
  for (const ctx of contexts.splice(0)) await ctx.close().catch(() => {});
});

afterAll(async () => {
  await Promise.all([stack?.stop(), mcp?.close()]);
});

describe("the dashboard's MCP page", () => {
  it("adds a server with a bearer token and shows its status and tools, never the token", async () => {
    const { page } = await mcpPage();
    await page.getByLabel("Name").fill("crm");
    await page.getByLabel("URL").fill(mcp.urls.bearer);
    await page.getByLabel("Bearer token").fill(MCP_TEST_TOKEN);
    await page.getByRole("button", { name: "Add server" }).click();
    await page.getByRole("status").filter({ hasText: "crm added: connected" }).waitFor();
    await expect
      .poll(() => row(page, "crm").locator("[data-status]").getAttribute("data-status"), { timeout: 15_000 })
      .toBe("connected");
    await row(page, "crm")
      .getByText(/\d+ tools/)
      .click();
    expect(await row(page, "crm").locator("li code").allTextContents()).toContain("crm__lookup");
    expect(await row(page, "crm").textContent()).toContain("headers: Authorization");
    expect(await page.content()).not.toContain(MCP_TEST_TOKEN);
  });

  it("connects a server that needs OAuth through the sign-in in a new tab", async () => {
    const { ctx, page } = await mcpPage();
    await page.getByLabel("Name").fill("secure");
    await page.getByLabel("URL").fill(mcp.urls.oauth);
    await page.getByRole("button", { name: "Add server" }).click();
    await expect
      .poll(() => row(page, "secure").locator("[data-status]").getAttribute("data-status"), {
        timeout: 15_000,
      })
      .toBe("needs_auth");
    const popup = ctx.waitForEvent("page");
    await row(page, "secure").getByRole("button", { name: "Connect" }).click();
    const signIn = await popup;
    await signIn.getByText(/secure is connected \(\d+ tools\)/).waitFor({ timeout: 20_000 });
    await row(page, "secure").getByRole("button", { name: "Refresh" }).click();
    await expect
      .poll(() => row(page, "secure").locator("[data-status]").getAttribute("data-status"), {
        timeout: 15_000,
      })
      .toBe("connected");
    if (process.env.CIRRUS_SCREENSHOTS)
      await page.screenshot({ path: resolve(DOCS, "mcp.png"), fullPage: true });
  });

  it("removes a server after a confirmation", async () => {
    const { page } = await mcpPage();
    const remove = row(page, "crm").getByRole("button", { name: "Remove" });
    await remove.click();
    await row(page, "crm").getByRole("button", { name: "Confirm remove" }).click();
    await page.getByRole("status").filter({ hasText: "crm removed." }).waitFor();
    expect(await row(page, "crm").count()).toBe(0);
    const { data } = await cirrusApi<{ data: { name: string }[] }>(stack, "/v1/mcp/servers", sk);
    expect(data.map((s) => s.name)).toEqual(["secure"]);
  });
});

describe("Cirrus's own MCP server under wrangler dev", () => {
  it("serves run_agent to the SDK's client with a workspace key", async () => {
    await scriptWidget(stack.model, [{ text: "Hello from Cirrus." }]);
    const transport = new StreamableHTTPClientTransport(new URL(`${stack.cirrus}/mcp`), {
      requestInit: { headers: { Authorization: `Bearer ${sk}` } },
    });
    const client = new Client({ name: "e2e", version: "1.0.0" });
    await client.connect(transport);
    try {
      expect((await client.listTools()).tools.map((t) => t.name)).toContain("run_agent");
      const result = await client.callTool({ name: "run_agent", arguments: { prompt: "Say hello" } });
      expect(result.content).toEqual([{ type: "text", text: "Hello from Cirrus." }]);
      expect(result.structuredContent).toMatchObject({ status: "succeeded" });
    } finally {
      await client.close();
    }
  });
});
