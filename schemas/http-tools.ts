/** The schema of HTTP tools: tools that API users register and Cirrus calls over HTTP. */
import { z } from "@hono/zod-openapi";
import { ApprovalRule } from "./approvals";
import { sameOrigin } from "./credentials";
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

/** `PATCH /v1/tools/{name}`: the fields to change; `headers: null` removes them. */
export const UpdateHttpTool = z
  .strictObject({
    description: HttpToolSpec.shape.description.optional(),
    parameters: z.record(z.string(), z.unknown()).optional().describe("JSON Schema of the arguments."),
    url: HttpToolSpec.shape.url.optional(),
    headers: HttpToolSpec.shape.headers
      .unwrap()
      .nullable()
      .optional()
      .describe(
        "Replaces every header; null removes them. A `url` on another origin without `headers` drops the stored ones.",
      ),
    timeout_ms: z.number().int().min(100).max(120_000).optional(),
    approval: ApprovalRule.nullable().optional().describe("null restores allow."),
  })
  .openapi("UpdateHttpTool");
export type UpdateHttpTool = z.infer<typeof UpdateHttpTool>;

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

/**
 * A stored tool after an update. A URL on another origin without headers given again drops the
 * stored headers (`cleared`): they were given for the old host only.
 */
export function updatedHttpTool(
  tool: StoredHttpTool,
  patch: UpdateHttpTool,
): { tool: StoredHttpTool; cleared: boolean } {
  const { headers, approval, ...rest } = patch;
  const next: StoredHttpTool = { ...tool, ...stripUndefined(rest) };
  if (headers !== undefined) next.headers = headers ?? undefined;
  if (approval !== undefined) next.approval = approval ?? undefined;
  const moved = patch.url !== undefined && !sameOrigin(patch.url, tool.url);
  const cleared = moved && headers === undefined && Object.keys(tool.headers ?? {}).length > 0;
  if (cleared) next.headers = undefined;
  return { tool: next, cleared };
}

function stripUndefined<T extends Record<string, unknown>>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}

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
