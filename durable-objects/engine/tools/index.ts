/** The built-in tool set of a conversation, assembled from the tool families. */
import { createAskUserTool } from "./ask-user";
import { createRemoteBrowserTools, type RemoteBrowser } from "./browser-remote";
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
  /** The conversation's browser in the workspace's fleet; without it the browser tools are not offered. */
  browser?: RemoteBrowser;
}

/** Every built-in tool available to a conversation's runs. */
export function createBuiltinTools(deps: BuiltinToolDeps): ToolRegistry {
  return new ToolRegistry([
    ...createTaskTools(deps.tasks),
    createAskUserTool({ timeoutMs: deps.askUserTimeoutMs, unattended: deps.unattended }),
    ...(deps.files ? createFileTools(deps.files) : []),
    ...(deps.web ? createWebTools(deps.web) : []),
    ...(deps.browser ? createRemoteBrowserTools(deps.browser) : []),
    ...(deps.browser
      ? [
          createTakeoverTool({
            browser: deps.browser,
            timeoutMs: deps.takeoverTimeoutMs,
            unattended: deps.unattended,
          }),
        ]
      : []),
  ]);
}
