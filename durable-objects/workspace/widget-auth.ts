/**
 * Admission of a widget request inside the WorkspaceObject: the publishable key, the page's
 * origin, the visitor token and the per-key / per-visitor rate limits, checked in one call.
 */
import { findVisitor, hitRateLimit, verifyKey } from "./workspace-keys";

/** Fixed-window limits for widget traffic. */
export interface WidgetLimits {
  perKey: number;
  perVisitor: number;
  windowMs: number;
}

/** What the Worker asks about one widget request. */
export interface WidgetAuthRequest {
  keyHash: string;
  origin: string | null;
  /** Null only for the request that creates the visitor. */
  visitorHash: string | null;
  limits: WidgetLimits;
}

/** The answer: who the visitor is, or why they may not pass. */
export type WidgetAuth =
  | { ok: true; keyId: string; conversationId: string | null }
  | {
      ok: false;
      status: 401 | 403 | 429;
      code: string;
      message: string;
      retryAfterMs?: number;
      /** The key is valid and allows the origin, so the browser may read this error. */
      originOk: boolean;
    };

/** Checks a widget request; counts it against the rate limits when the key and origin are good. */
export function authorizeWidget(sql: SqlStorage, req: WidgetAuthRequest): WidgetAuth {
  const key = verifyKey(sql, req.keyHash);
  if (key?.type !== "publishable")
    return {
      ok: false,
      status: 401,
      code: "unauthorized",
      message: "The publishable key is not valid.",
      originOk: false,
    };
  if (!req.origin || !key.allowed_origins.includes(req.origin))
    return {
      ok: false,
      status: 403,
      code: "forbidden",
      message: "This publishable key is not allowed on this origin.",
      originOk: false,
    };
  const { perKey, perVisitor, windowMs } = req.limits;
  sql.exec("DELETE FROM rate_windows WHERE window_start < ?", Date.now() - 2 * windowMs);
  const keyWait = hitRateLimit(sql, `key:${key.id}`, perKey, windowMs);
  if (keyWait > 0) return limited("this key", keyWait);
  if (!req.visitorHash) return { ok: true, keyId: key.id, conversationId: null };
  const visitor = findVisitor(sql, req.visitorHash);
  if (!visitor || visitor.key_id !== key.id)
    return {
      ok: false,
      status: 401,
      code: "unauthorized",
      message: "The visitor token is not valid.",
      originOk: true,
    };
  const visitorWait = hitRateLimit(sql, `visitor:${req.visitorHash}`, perVisitor, windowMs);
  if (visitorWait > 0) return limited("this visitor", visitorWait);
  return { ok: true, keyId: key.id, conversationId: visitor.conversation_id };
}

function limited(who: string, waitMs: number): WidgetAuth {
  const seconds = Math.max(1, Math.ceil(waitMs / 1000));
  return {
    ok: false,
    status: 429,
    code: "rate_limited",
    message: `Too many requests for ${who}; retry in ${seconds} s.`,
    retryAfterMs: waitMs,
    originOk: true,
  };
}
