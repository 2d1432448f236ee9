/**
 * What the agent's own system prompt costs: its tokens (o200k_base, the GPT-4o/GPT-5 encoding)
 * with every built-in tool, with none, and a sub-agent's, beside the one-sentence prompt it replaced.
 */
import { encode } from "gpt-tokenizer/encoding/o200k_base";
import { agentSystemPrompt, subAgentSystemPrompt } from "../durable-objects/engine/loop/system-prompt.ts";

const ALL_TOOLS = [
  "web_search",
  "web_fetch",
  "open_tab",
  "get_tab_content",
  "click",
  "type_text",
  "request_takeover",
  "create_task",
  "update_task",
  "agent",
  "opfs_write",
  "opfs_read",
  "ask_user",
  "finish",
];
const OLD =
  "You are Cirrus, a capable assistant that works by calling tools. Use tools when they help; when a tool returns an error, read it and adapt. Answer the user directly when you are done.";

const rows: [string, string][] = [
  ["agent, every built-in tool", agentSystemPrompt({ tools: ALL_TOOLS })],
  ["agent, no tools", agentSystemPrompt({ tools: [] })],
  ["agent, unattended job run, every tool", agentSystemPrompt({ tools: ALL_TOOLS, unattended: true })],
  ["sub-agent", subAgentSystemPrompt({ tools: ALL_TOOLS })],
  ["previous one-sentence prompt", OLD],
];
console.log("\n## System prompt size (o200k_base tokens)\n");
console.log("| prompt | characters | tokens |\n| --- | ---: | ---: |");
for (const [name, text] of rows) console.log(`| ${name} | ${text.length} | ${encode(text).length} |`);
