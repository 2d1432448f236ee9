/** The API's one error shape, and the error class routes throw to produce it. */
import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { InvalidObjectId } from "../durable-objects/addresses/ids";
import { CirrusError, ConfigError } from "../durable-objects/engine/errors";
import type { RpcFailure } from "../durable-objects/engine/rpc-result";
import type { ErrorBody } from "../schemas/api";

/** An error with an HTTP status and a stable code; rendered as `{"error": {code, message}}`. */
export class ApiError extends CirrusError {
  constructor(
    readonly status: ContentfulStatusCode,
    code: string,
    message: string,
    /** Extra response headers, e.g. Retry-After. */
    readonly headers?: Record<string, string>,
  ) {
    super(code, message);
  }
}

/** Throws the failure of a Durable Object call as an {@link ApiError}; passes values through. */
export function unwrap<T>(result: { ok: true; value: T } | RpcFailure): T {
  if (!result.ok) throw new ApiError(result.status, result.code, result.message);
  return result.value;
}

/** The JSON body of an error. */
export function errorBody(code: string, message: string): ErrorBody {
  return { error: { code, message } };
}

const CODE_BY_STATUS: Record<number, string> = {
  400: "invalid_request",
  401: "unauthorized",
  403: "forbidden",
  404: "not_found",
  405: "method_not_allowed",
  409: "conflict",
  413: "payload_too_large",
  415: "unsupported_media_type",
  429: "rate_limited",
};

/** `app.onError`: every thrown error becomes the one JSON shape; only real bugs are 500s. */
export function handleError(err: Error, c: Context): Response {
  if (err instanceof ApiError) return c.json(errorBody(err.code, err.message), err.status, err.headers);
  if (err instanceof InvalidObjectId) return c.json(errorBody("not_found", err.message), 404);
  if (err instanceof ConfigError) {
    // The deployment's vars are wrong: say which, to the operator's logs and to every caller.
    reportConfigError(err);
    return c.json(errorBody(err.code, err.message), 503);
  }
  if (err instanceof HTTPException) {
    const status = err.status as ContentfulStatusCode;
    return c.json(
      errorBody(CODE_BY_STATUS[status] ?? "http_error", err.message || "Request failed."),
      status,
    );
  }
  console.error("unhandled error", err instanceof Error ? err.stack : err);
  return c.json(errorBody("internal", "Something went wrong on our side."), 500);
}

let reported = "";

/** Logs an invalid configuration once per isolate (the message names variables, never secrets). */
export function reportConfigError(err: ConfigError): void {
  if (reported === err.message) return;
  reported = err.message;
  console.error(err.message);
}
