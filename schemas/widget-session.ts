/** A widget visitor's session: its conversation and the token that unlocks it. */
import { z } from "@hono/zod-openapi";

export const WidgetSession = z
  .object({
    conversation_id: z.string(),
    visitor_token: z
      .string()
      .describe("Send as `X-Visitor-Token` with the publishable key; unlocks this conversation only."),
  })
  .openapi("WidgetSession");
