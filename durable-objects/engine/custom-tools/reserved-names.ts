/** The remote browser's tools (tabs, content, scripts, interaction). */
export const BROWSER_TOOL_NAMES = [
  "list_tabs",
  "open_tab",
  "close_tab",
  "activate_tab",
  "get_tab_content",
  "execute_script",
  "click",
  "type_text",
  "type_secret",
  "upload_file",
  "press_key",
  "scroll",
  "wait_for",
  "screenshot",
] as const;

/** The run's own controls: finishing, asking the user, and the task list. */
export const RUN_CONTROL_TOOL_NAMES = [
  "finish",
  "ask_user",
  "create_task",
  "get_task",
  "update_task",
  "list_tasks",
  "delete_task",
] as const;

/** Tool names a custom tool may not take: `finish` and every built-in tool. */
export const RESERVED_TOOL_NAMES: ReadonlySet<string> = new Set([
  ...RUN_CONTROL_TOOL_NAMES,
  "agent",
  "find_tools",
  "call_tool",
  "web_fetch",
  "web_search",
  ...BROWSER_TOOL_NAMES,
  "opfs_write",
  "opfs_read",
  "opfs_list",
  "opfs_delete",
]);
