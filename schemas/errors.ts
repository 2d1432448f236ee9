/** The one error shape of every route. */
import { z } from "@hono/zod-openapi";

/** The one error shape of every route. */
export const ErrorBody = z
  .object({
    error: z.object({
      code: z.string().describe("Stable machine-readable code, e.g. `not_found`, `invalid_request`."),
      message: z.string().describe("What went wrong, for people."),
    }),
  })
  .openapi("Error");
export type ErrorBody = z.infer<typeof ErrorBody>;
