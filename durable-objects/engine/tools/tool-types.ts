/** What a tool is: its name, description, parameters and execution (declared with defineTool, tool.ts). */
import type { z } from "zod";
import type { ApprovalRule } from "../../../schemas/approvals";

/** What every tool execution receives besides its arguments. */
export interface ToolContext {
  conversationId: string;
  workspaceId: string;
  runId: string | null;
  toolCallId: string;
  /** Aborted when the run is cancelled or the tool times out. */
  signal: AbortSignal;
}

/** A tool the model can call. */
export interface Tool<S extends z.ZodType = z.ZodType> {
  name: string;
  description: string;
  parameters: S;
  execute(args: z.infer<S>, ctx: ToolContext): unknown;
  /** Overrides the default per-tool timeout. */
  timeoutMs?: number;
  /** Needs a run around it (e.g. waits for a person); not callable through the direct tool route. */
  runOnly?: boolean;
  /** The parameters' JSON Schema when given directly (HTTP tools) instead of derived from zod. */
  jsonSchema?: Record<string, unknown>;
  /** The tool's own approval default, set when it is registered (HTTP tools, MCP servers); absent = allow. */
  approval?: ApprovalRule;
  /** May be left out of a list too long and found with `find_tools` (MCP and HTTP tools; tool-offer.ts). */
  searchable?: boolean;
}
