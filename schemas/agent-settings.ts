/**
 * Workspace defaults the dashboard edits: the agent (model, instructions, tools allowed) that new
 * conversations start from, and the widget's look (title, greeting, colour, language, position).
 */
import { z } from "@hono/zod-openapi";
import { oneLine } from "./one-line";
import { ToolPattern } from "./approvals";
import { CSS_COLOUR, TOOL_NAME_PATTERN } from "./patterns";

const toolName = z.string().regex(TOOL_NAME_PATTERN, "tool names are 1-64 letters, digits, _ or -");

/** Whether the runtime knows this IANA time zone name. */
export function isTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat("en", { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

/** An IANA time zone such as `Europe/Berlin`. */
export const TimeZone = z
  .string()
  .trim()
  .min(1)
  .max(64)
  .refine(isTimeZone, "must be an IANA time zone such as Europe/Berlin");

/** Defaults for new conversations; `null` means the deployment's default. */
export const AgentSettings = z
  .object({
    model: oneLine(200).nullable(),
    instructions: z.string().max(100_000).nullable(),
    allowed_tools: z
      .array(toolName)
      .max(200)
      .nullable()
      .describe("Tool names new conversations may use (`finish` is always available); null = all tools."),
    timezone: TimeZone.nullable().describe(
      "The workspace's IANA time zone: the agent is told the date and time in it (and in UTC).",
    ),
    recording: z
      .boolean()
      .optional()
      .describe(
        "Whether new conversations and jobs record their browser tabs (rrweb, inputs masked); default false.",
      ),
  })
  .openapi("AgentSettings");
export type AgentSettings = z.infer<typeof AgentSettings>;

export const DEFAULT_AGENT_SETTINGS: AgentSettings = {
  model: null,
  instructions: null,
  allowed_tools: null,
  timezone: null,
};

/** A CSS colour the widget accepts: hex, rgb()/hsl() or a named colour. */
const colour = z.string().trim().regex(CSS_COLOUR, "must be a CSS colour like #0b5fff");

/** The widget's look, as every page view reads it (`GET /v1/widget/config`). */
export const WidgetLook = z
  .object({
    title: z.string().trim().max(200).nullable(),
    greeting: z.string().trim().max(2000).nullable(),
    color: colour.nullable(),
    language: z.enum(["en", "zh", "es"]).nullable(),
    position: z.enum(["right", "left"]).nullable(),
  })
  .openapi("WidgetLook");
export type WidgetLook = z.infer<typeof WidgetLook>;

/** Most entries of the widget's tool list. */
export const MAX_WIDGET_TOOLS = 200;

/** The widget's look (its `<script data-…>` attributes override it on one page) and its visitors' tools. */
export const WidgetSettings = WidgetLook.extend({
  tools: z
    .array(ToolPattern)
    .max(MAX_WIDGET_TOOLS)
    .nullable()
    .describe(
      "Tool names or globs (`*`, `?`) a widget visitor's conversation may use, replacing the default (null): the web tools, the browser tools but type_secret, request_takeover, the task tools, ask_user and finish. File tools work only inside the visitor's own folder visitors/<visitor id>/.",
    ),
}).openapi("WidgetSettings");
export type WidgetSettings = z.infer<typeof WidgetSettings>;

export const DEFAULT_WIDGET_SETTINGS: WidgetSettings = {
  title: null,
  greeting: null,
  color: null,
  language: null,
  position: null,
  tools: null,
};

/** The look alone: what an anonymous page view is sent (never the visitors' tool list). */
export function widgetLook(settings: WidgetSettings): WidgetLook {
  const { tools: _tools, ...look } = settings;
  return look;
}
