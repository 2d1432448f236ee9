/** Names and titles: one line of text of at most `max` characters, as people will read it. */
import { z } from "@hono/zod-openapi";
import { NOT_ONE_LINE } from "./patterns";

/** A trimmed, non-empty line of at most `max` characters, with no control or reordering characters. */
export const oneLine = (max: number) =>
  z
    .string()
    .trim()
    .min(1)
    .max(max)
    .refine(
      (s) => !NOT_ONE_LINE.test(s),
      "must be one line of text: no control characters, line breaks or bidirectional overrides",
    );
