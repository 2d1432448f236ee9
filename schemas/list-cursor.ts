/**
 * The cursor of the lists kept in order by a number and then an id (conversations, jobs, a job's
 * runs, a webhook's deliveries): `<number>.<id>`, the position of a page's last item itself, so
 * the next page starts right after it even when that item was deleted in between. A bare id, the
 * form these lists gave before, is still read by looking its item up. Clients see it as opaque.
 */
import { z } from "@hono/zod-openapi";

/** Where a list stands: the number it is sorted by (a time, a run number, a log order) and the id after it. */
export interface ListPosition {
  key: number;
  id: string;
}

/** `<number>.<id>` or a bare id; ids are the API's id characters (no dot). */
const LIST_CURSOR = /^(?:(\d{1,16})\.)?([A-Za-z0-9_-]{1,100})$/;

/** The failure of a cursor a list did not give (or whose item is gone, for a bare id): a Durable Object RPC result. */
export const INVALID_CURSOR = {
  ok: false,
  status: 400,
  code: "invalid_cursor",
  message: "The cursor is not a next_cursor of this list; start again from the first page, without cursor.",
} as const;

/** The cursor of the page that ends at `position`. */
export const listCursor = (position: ListPosition): string => `${position.key}.${position.id}`;

/** A cursor's position, or (a bare id) only its id, to look up; null when it is neither. */
export function readListCursor(cursor: string): ListPosition | { key: null; id: string } | null {
  const match = LIST_CURSOR.exec(cursor);
  if (!match) return null;
  if (match[1] === undefined) return { key: null, id: match[2] };
  const key = Number(match[1]);
  return Number.isSafeInteger(key) ? { key, id: match[2] } : null;
}

/** The position `cursor` names: read from it, or for a bare id its item's key (`keyOf`); null when neither. */
export function cursorPosition(
  cursor: string,
  keyOf: (id: string) => number | undefined,
): ListPosition | null {
  const read = readListCursor(cursor);
  if (!read || read.key !== null) return read;
  const key = keyOf(read.id);
  return key === undefined ? null : { key, id: read.id };
}

/** `?cursor=` of these lists: anything but one of their cursors is a 400 `invalid_cursor`. */
export const ListCursorParam = z
  .string()
  .refine((cursor) => readListCursor(cursor) !== null, {
    message: INVALID_CURSOR.message,
    params: { code: INVALID_CURSOR.code },
  })
  .openapi({
    pattern: LIST_CURSOR.source,
    description: "The `next_cursor` of the page before (opaque); leave out for the first page.",
  })
  .optional();
