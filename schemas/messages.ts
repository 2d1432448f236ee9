/** A conversation's messages: how one is shown, sending one and answering a question. */
import { z } from "@hono/zod-openapi";
import { MessageReviewOptions } from "./research";

export const ChatMessageView = z
  .object({
    id: z.number().int(),
    run_id: z.string().nullable(),
    role: z.enum(["system", "user", "assistant", "tool"]),
    content: z.string().nullable(),
    tool_calls: z.array(z.object({ id: z.string(), name: z.string(), arguments: z.string() })).optional(),
    tool_call_id: z.string().optional(),
    created_at: z.number(),
  })
  .openapi("Message");
export type ChatMessageView = z.infer<typeof ChatMessageView>;

export const SendMessage = z
  .object({
    content: z.string().min(1).max(500_000).describe("The user's message."),
    stream: z
      .boolean()
      .default(true)
      .describe("Stream this run's events as SSE (default) or wait for the result."),
    idempotency_key: z.string().min(1).max(200).optional().describe("The same key twice starts one run."),
    steer: z
      .boolean()
      .default(false)
      .describe(
        "Join the active run before its next model turn instead of queueing a new run; with no active run, start one as usual.",
      ),
  })
  .extend(MessageReviewOptions.shape)
  .openapi("SendMessage");

export const AnswerBody = z
  .object({
    question_id: z.string().min(1),
    answer: z
      .union([z.string().max(100_000), z.array(z.string().max(1000)).max(50)])
      .describe("Free text, one of the options, or (with `multiple`) a list of options."),
  })
  .openapi("Answer");
export type AnswerBody = z.infer<typeof AnswerBody>;
