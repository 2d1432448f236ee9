/** The ask_user tool: asks the person a question and pauses the run until they answer. */
import { z } from "zod";
import { durationText } from "./limit-text";
import { defineTool, suspend, type Tool } from "./tool";

export const AskUserArgs = z
  .object({
    question: z.string().min(1).max(10_000).describe("The question content."),
    options: z
      .array(z.string().min(1).max(500))
      .min(1)
      .max(50)
      .optional()
      .describe("A list of choices (when provided, this becomes a multiple-choice question)."),
    multiple: z
      .boolean()
      .default(false)
      .describe("Whether multiple selection is allowed (defaults to false)."),
  })
  .refine((a) => !a.multiple || a.options, { message: "multiple needs options", path: ["multiple"] });

/** How ask_user behaves in this run. */
export interface AskUserOptions {
  timeoutMs: number;
  /** Unattended runs (scheduled jobs) have nobody to ask. */
  unattended?: boolean;
}

/** Creates ask_user. */
export function createAskUserTool(opts: AskUserOptions): Tool {
  return defineTool({
    name: "ask_user",
    description: `Ask the user a question, as free text or as a choice among options (set multiple for several). The run waits for the answer; after ${durationText(opts.timeoutMs)} without one it returns {answer: null, reason: "timeout"}.`,
    parameters: AskUserArgs,
    runOnly: true,
    timeoutMs: 10_000,
    execute: (args, ctx) => {
      if (opts.unattended) return { answer: null, reason: "unattended" };
      const now = Date.now();
      return suspend({
        question_id: ctx.toolCallId,
        question: args.question,
        options: args.options,
        multiple: args.multiple,
        asked_at: now,
        expires_at: now + opts.timeoutMs,
      });
    },
  });
}
