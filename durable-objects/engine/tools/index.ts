/** The built-in tool set of a conversation, assembled from the tool families. */
import { createAskUserTool } from "./ask-user";
import { createBrowserTools } from "./browser";
import type { BrowserToolDeps } from "./browser-shared";
import { createFileTools, type FilesToolDeps } from "./files";
import { createTakeoverTool } from "./takeover";
import { createTaskTools, type TaskOps } from "./tasks";
import { ToolRegistry } from "./tool";
import { createWebTools, type WebToolDeps } from "./web";

/** What the built-in tools need from their conversation. */
export interface BuiltinToolDeps {
  tasks: TaskOps;
  askUserTimeoutMs: number;
  /** How long request_takeover waits for the person (with the browser only). */
  takeoverTimeoutMs: number;
  unattended?: boolean;
  files?: FilesToolDeps;
  web?: WebToolDeps;
  /** The remote browser; without it the browser tools are not offered. */
  browser?: BrowserToolDeps;
}

/** Every built-in tool available to a conversation's runs. */
export function createBuiltinTools(deps: BuiltinToolDeps): ToolRegistry {
  return new ToolRegistry([
    ...createTaskTools(deps.tasks),
    createAskUserTool({ timeoutMs: deps.askUserTimeoutMs, unattended: deps.unattended }),
    ...(deps.files ? createFileTools(deps.files) : []),
    ...(deps.web ? createWebTools(deps.web) : []),
    ...(deps.browser ? createBrowserTools(deps.browser) : []),
    ...(deps.browser
      ? [
          createTakeoverTool({
            browser: deps.browser.browser,
            timeoutMs: deps.takeoverTimeoutMs,
            unattended: deps.unattended,
          }),
        ]
      : []),
  ]);
}
