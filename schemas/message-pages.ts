/** Paging through a conversation's messages: `GET /v1/conversations/{id}/messages`. */
import { z } from "@hono/zod-openapi";
import { ChatMessageView } from "./messages";

/** Messages one page holds at most. */
export const MAX_MESSAGE_PAGE = 1_000;

export const MessagePageQuery = z.object({
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(MAX_MESSAGE_PAGE)
    .default(100)
    .describe(`Messages per page (1–${MAX_MESSAGE_PAGE}).`),
  cursor: z
    .string()
    .regex(/^\d{1,15}$/, "cursor must be a next_cursor from an earlier page")
    .optional()
    .describe("The `next_cursor` of the page before; omitted for the first page."),
  order: z
    .enum(["asc", "desc"])
    .default("asc")
    .describe("`asc`: oldest first (the default); `desc`: newest first, paging back in time."),
});
export type MessagePageQuery = z.infer<typeof MessagePageQuery>;

export const MessageList = z
  .object({
    data: z.array(ChatMessageView),
    has_more: z.boolean(),
    next_cursor: z.string().nullable().describe("Pass as `cursor` to get the next page; null on the last."),
    total: z.number().int().describe("How many messages the conversation has in all."),
  })
  .openapi("MessageList");
export type MessageList = z.infer<typeof MessageList>;
