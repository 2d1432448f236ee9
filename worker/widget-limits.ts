/**
 * The widget's rate limits, counted by the platform's Rate Limiting bindings (`[[ratelimits]]`
 * in wrangler.toml) instead of a counter in a Durable Object: per publishable key (all its
 * visitors together) and per visitor. A binding's limit and period are static configuration;
 * the vars WIDGET_RATE_LIMIT_PER_KEY / _PER_VISITOR / _WINDOW_S state the same numbers (a test
 * keeps them equal) and give the window used in Retry-After.
 */
import { readEnv } from "../durable-objects/engine/config/env";

/** The widget limits as configured: requests per window of `windowS` seconds. */
export interface WidgetLimits {
  perKey: number;
  perVisitor: number;
  windowS: number;
}

/** The widget rate limits from vars WIDGET_RATE_LIMIT_PER_KEY / _PER_VISITOR / _WINDOW_S (see engine/config/env.ts). */
export function widgetLimits(env: Env): WidgetLimits {
  const v = readEnv(env);
  return {
    perKey: v.WIDGET_RATE_LIMIT_PER_KEY,
    perVisitor: v.WIDGET_RATE_LIMIT_PER_VISITOR,
    windowS: v.WIDGET_RATE_LIMIT_WINDOW_S,
  };
}

/** Why a widget request is refused for rate: who hit the limit and when to retry. */
export interface Limited {
  who: "this key" | "this visitor";
  retryAfterS: number;
}

/** Counts one request of publishable key `keyId`; null when allowed. */
export async function limitKey(env: Env, workspaceId: string, keyId: string): Promise<Limited | null> {
  const { success } = await env.WIDGET_KEY_LIMITER.limit({ key: `${workspaceId}/${keyId}` });
  return success ? null : { who: "this key", retryAfterS: widgetLimits(env).windowS };
}

/** Counts one request of a visitor (by token hash); null when allowed. */
export async function limitVisitor(env: Env, visitorHash: string): Promise<Limited | null> {
  const { success } = await env.WIDGET_VISITOR_LIMITER.limit({ key: visitorHash });
  return success ? null : { who: "this visitor", retryAfterS: widgetLimits(env).windowS };
}
