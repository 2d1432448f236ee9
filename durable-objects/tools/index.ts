/** The built-in tool set of a conversation, assembled from the tool families. */
import { createAskUserTool } from "./ask-user";
import { createTaskTools, type TaskOps } from "./tasks";
import { ToolRegistry } from "./tool";
import { createWebTools, type WebToolDeps } from "./web";

/** What the built-in tools need from their conversation. */
export interface BuiltinToolDeps {
  tasks: TaskOps;
  askUserTimeoutMs: number;
  unattended?: boolean;
  web?: WebToolDeps;
}

/** Every built-in tool available to a conversation's runs. */
export function createBuiltinTools(deps: BuiltinToolDeps): ToolRegistry {
  return new ToolRegistry([
    ...createTaskTools(deps.tasks),
    createAskUserTool({ timeoutMs: deps.askUserTimeoutMs, unattended: deps.unattended }),
    ...(deps.web ? createWebTools(deps.web) : []),
  ]);
}
