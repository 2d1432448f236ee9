/** Small helpers shared by route files. */
import type { z } from "@hono/zod-openapi";
import { ErrorBody } from "../../shared/api";

/** A JSON response entry for a route's `responses`. */
export const json = <T extends z.ZodType>(schema: T, description: string) => ({
  content: { "application/json": { schema } },
  description,
});

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
