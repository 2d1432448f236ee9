/** Calling one of a conversation's tools directly. */
import { z } from "@hono/zod-openapi";

export const ToolCallBody = z
  .object({ arguments: z.record(z.string(), z.unknown()).default({}).describe("The tool's arguments.") })
  .openapi("ToolCall");

export const ToolCallResult = z.object({ tool: z.string(), result: z.unknown() }).openapi("ToolCallResult");
