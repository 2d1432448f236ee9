/** The built-in tool set of a conversation, assembled from the tool families. */
import { createAskUserTool } from "./ask-user";
import { createBrowserTools } from "./browser";
import type { BrowserToolDeps } from "./browser-shared";
import { createTaskTools, type TaskOps } from "./tasks";
import { ToolRegistry } from "./tool";

/** What the built-in tools need from their conversation. */
export interface BuiltinToolDeps {
  tasks: TaskOps;
  askUserTimeoutMs: number;
  unattended?: boolean;
  /** The remote browser; without it the browser tools are not offered. */
  browser?: BrowserToolDeps;
}

/** Every built-in tool available to a conversation's runs. */
export function createBuiltinTools(deps: BuiltinToolDeps): ToolRegistry {
  return new ToolRegistry([
    ...createTaskTools(deps.tasks),
    createAskUserTool({ timeoutMs: deps.askUserTimeoutMs, unattended: deps.unattended }),
    ...(deps.browser ? createBrowserTools(deps.browser) : []),
  ]);
}
