/** Cursor pagination, one shape for every list: `{ data, has_more, next_cursor }`. */
import { z } from "@hono/zod-openapi";

/** The schema of one page of `item`s. */
export const cursorPageOf = <T extends z.ZodType>(item: T) =>
  z.object({
    data: z.array(item),
    has_more: z.boolean(),
    next_cursor: z.string().nullable().describe("Pass as `cursor` to get the next page."),
  });

/** One page of a cursor-paged list. */
export interface CursorPage<T> {
  data: T[];
  has_more: boolean;
  next_cursor: string | null;
}

/** One page: `next_cursor` is the last item's cursor while there is more. */
export function cursorPage<T>(
  data: T[],
  hasMore: boolean,
  lastCursor: string | null | undefined,
): CursorPage<T> {
  return { data, has_more: hasMore, next_cursor: hasMore ? (lastCursor ?? null) : null };
}
