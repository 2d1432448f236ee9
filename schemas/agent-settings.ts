/**
 * Workspace defaults the dashboard edits: the agent (model, instructions, tools allowed) that new
 * conversations start from, and the widget's look (title, greeting, colour, language, position).
 */
import { z } from "@hono/zod-openapi";
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
    model: z.string().trim().min(1).max(200).nullable(),
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

/** The widget's look; its `<script data-…>` attributes override these on one page. */
export const WidgetSettings = z
  .object({
    title: z.string().trim().max(200).nullable(),
    greeting: z.string().trim().max(2000).nullable(),
    color: colour.nullable(),
    language: z.enum(["en", "zh", "es"]).nullable(),
    position: z.enum(["right", "left"]).nullable(),
  })
  .openapi("WidgetSettings");
export type WidgetSettings = z.infer<typeof WidgetSettings>;

export const DEFAULT_WIDGET_SETTINGS: WidgetSettings = {
  title: null,
  greeting: null,
  color: null,
  language: null,
  position: null,
};
