/**
 * Starts the real local servers the workerd tests talk to: the scripted OpenAI-compatible
 * model (the only stand-in in the suite) and a page server. Runs in Node before the tests.
 */
import type { TestProject } from "vitest/node";
import { type McpServerUrls, startMcpServers } from "./mcp-servers.ts";
import { startOtlpReceiver } from "./otlp-receiver.ts";
import { startPageServer } from "./page-server.ts";
import { startScriptedModel } from "./scripted-model.ts";
import "./web-pages.ts";

declare module "vitest" {
  export interface ProvidedContext {
    llmUrl: string;
    pageUrl: string;
    mcpUrls: McpServerUrls;
    otlpUrl: string;
    otlpControlUrl: string;
  }
}

export default async function setup(project: TestProject) {
  const model = await startScriptedModel();
  const pages = await startPageServer();
  const otlp = await startOtlpReceiver();
  project.provide("otlpUrl", otlp.url);
  project.provide("otlpControlUrl", otlp.controlUrl);
  const mcp = await startMcpServers();
  project.provide("llmUrl", model.url);
  project.provide("pageUrl", pages.url);
  project.provide("mcpUrls", mcp.urls);
  return async () => {
    await Promise.all([model.close(), pages.close(), mcp.close(), otlp.close()]);
  };
}
