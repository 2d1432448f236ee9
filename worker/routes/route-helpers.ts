/** Small helpers shared by route files. */
import { z } from "@hono/zod-openapi";
import { ErrorBody } from "../../schemas/api";
import { ListCursorParam } from "../../schemas/list-cursor";

/** A JSON response entry for a route's `responses`. */
export const json = <T extends z.ZodType>(schema: T, description: string) => ({
  content: { "application/json": { schema } },
  description,
});

/** A route's JSON request body (`required: false` lets the body be left out). */
export const jsonBody = <T extends z.ZodType, R extends boolean = true>(schema: T, required?: R) => ({
  content: { "application/json": { schema } },
  required: (required ?? true) as R,
});

/** The 200 response of a delete: `{ <key>: "…", deleted: true }`. */
export function deletedResponse<K extends "id" | "name">(key: K, description = "Deleted") {
  const shape = { [key]: z.string(), deleted: z.literal(true) } as Record<K, z.ZodString> & {
    deleted: z.ZodLiteral<true>;
  };
  return json(z.object(shape), description);
}

/** `?limit=&cursor=` of a cursor-paged list: 1 to 100 items (20 by default) after the cursor. */
export const PageQuery = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(20),
  cursor: z.string().max(200).optional(),
});

/** `?limit=&cursor=` of a list kept in order by a number then an id: a cursor it did not give is a 400 `invalid_cursor`. */
export const KeysetPageQuery = PageQuery.extend({ cursor: ListCursorParam });

/** The error responses most routes can give. */
export const commonErrors = {
  400: json(ErrorBody, "Invalid input"),
  401: json(ErrorBody, "Missing or invalid key"),
  404: json(ErrorBody, "Not found"),
};

/** An SSE response entry. */
export const sse = (description: string) => ({
  content: { "text/event-stream": { schema: { type: "string" as const } } },
  description,
});

/** Reads a resume position from Last-Event-ID or `?after=`. */
export function resumeAfter(lastEventId: string | undefined, after: string | undefined): number {
  const raw = lastEventId ?? after ?? "0";
  const n = Number.parseInt(raw, 10);
  return Number.isFinite(n) && n > 0 ? n : 0;
}
