/** The schema of HTTP tools: tools that API users register and Cirrus calls over HTTP. */
import { z } from "@hono/zod-openapi";
import { ApprovalRule } from "./approvals";
import { TOOL_NAME_PATTERN } from "./patterns";

export const HttpToolSpec = z
  .object({
    name: z
      .string()
      .regex(TOOL_NAME_PATTERN)
      .describe("Tool name the model sees; `finish` and built-in names are taken."),
    description: z.string().min(1).max(4000).describe("When the model should use it."),
    parameters: z
      .record(z.string(), z.unknown())
      .default({ type: "object", properties: {} })
      .describe("JSON Schema of the arguments; validated before each call."),
    url: z.url({ protocol: /^https?$/ }).describe("Cirrus POSTs the arguments here as JSON."),
    headers: z
      .record(z.string().regex(/^[A-Za-z0-9-]{1,100}$/), z.string().max(4000))
      .refine((h) => Object.keys(h).length <= 20, "at most 20 headers")
      .optional()
      .describe("Extra request headers (write-only: responses show their names only)."),
    timeout_ms: z.number().int().min(100).max(120_000).default(30_000).describe("Per-call timeout."),
    approval: ApprovalRule.optional().describe(
      "The tool's own approval default (absent = allow); combined with the workspace's and the conversation's rules, the stricter wins.",
    ),
  })
  .openapi("HttpToolSpec");
export type HttpToolSpec = z.infer<typeof HttpToolSpec>;

/** A stored HTTP tool: the spec plus its signing secret. */
export interface StoredHttpTool extends HttpToolSpec {
  secret: string;
  created_at: number;
}

/** An HTTP tool as the API shows it (no secret, header names only). */
export const HttpToolView = z
  .object({
    name: z.string(),
    description: z.string(),
    parameters: z.record(z.string(), z.unknown()),
    url: z.string(),
    header_names: z.array(z.string()),
    timeout_ms: z.number().int(),
    approval: ApprovalRule,
    created_at: z.number(),
  })
  .openapi("HttpTool");
export type HttpToolView = z.infer<typeof HttpToolView>;

/** The answer to registering a tool: the view plus its signing secret, shown once. */
export const CreatedHttpTool = HttpToolView.extend({
  secret: z.string().describe("HMAC-SHA256 key for the X-Cirrus-Signature header. Shown once."),
}).openapi("CreatedHttpTool");

/** The view of a stored tool. */
export function httpToolView(t: StoredHttpTool): HttpToolView {
  return {
    name: t.name,
    description: t.description,
    parameters: t.parameters,
    url: t.url,
    header_names: Object.keys(t.headers ?? {}),
    timeout_ms: t.timeout_ms,
    approval: t.approval ?? "allow",
    created_at: t.created_at,
  };
}
