/** Builds OpenAPIHono apps whose validation failures use the API's error shape. */
import { OpenAPIHono } from "@hono/zod-openapi";
import { z } from "zod";
import type { AppEnv } from "./app-env";
import { errorBody } from "./errors";

/** A sub-app for one resource; invalid input answers 400 with a readable message. */
export function createApp(): OpenAPIHono<AppEnv> {
  return new OpenAPIHono<AppEnv>({
    defaultHook: (result, c) => {
      if (!result.success) {
        return c.json(
          errorBody("invalid_request", `Invalid ${result.target}: ${z.prettifyError(result.error)}`),
          400,
        );
      }
    },
  });
}
