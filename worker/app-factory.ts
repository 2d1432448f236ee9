/** Builds OpenAPIHono apps whose validation failures use the API's error shape. */
import { OpenAPIHono } from "@hono/zod-openapi";
import { z } from "zod";
import type { AppEnv } from "./app-env";
import { errorBody } from "./errors";

/**
 * A sub-app for one resource; invalid input answers 400 with a readable message. A check that
 * names its own code (a list cursor's `invalid_cursor`) answers with that code and its message.
 */
export function createApp(): OpenAPIHono<AppEnv> {
  return new OpenAPIHono<AppEnv>({
    defaultHook: (result, c) => {
      if (!result.success) {
        for (const issue of result.error.issues)
          if (issue.code === "custom" && typeof issue.params?.code === "string")
            return c.json(errorBody(issue.params.code, issue.message), 400);
        return c.json(
          errorBody("invalid_request", `Invalid ${result.target}: ${z.prettifyError(result.error)}`),
          400,
        );
      }
    },
  });
}
