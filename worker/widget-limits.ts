/**
 * The widget's rate limits, counted by the platform's Rate Limiting bindings (`[[ratelimits]]`
 * in wrangler.toml) instead of a counter in a Durable Object: per publishable key (all its
 * visitors together) and per visitor. A binding's limit and period are static configuration;
 * the vars WIDGET_RATE_LIMIT_PER_KEY / _PER_VISITOR / _WINDOW_S state the same numbers (a test
 * keeps them equal) and give the window used in Retry-After.
 */

/** Default requests per window for one publishable key (all its visitors together). */
const DEFAULT_PER_KEY = 600;
/** Default requests per window for one visitor. */
const DEFAULT_PER_VISITOR = 60;
const DEFAULT_WINDOW_SECONDS = 60;
/** The only periods the Rate Limiting binding accepts. */
const BINDING_PERIODS = [10, 60];

/** The widget limits as configured: requests per window of `windowS` seconds. */
export interface WidgetLimits {
  perKey: number;
  perVisitor: number;
  windowS: number;
}

function positive(env: Env, name: keyof Env, fallback: number): number {
  const raw = (env as unknown as Record<string, unknown>)[name];
  if (raw === undefined || raw === "") return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n <= 0) throw new Error(`${name} must be a positive integer, got "${raw}".`);
  return n;
}

/** The widget rate limits from vars WIDGET_RATE_LIMIT_PER_KEY / _PER_VISITOR / _WINDOW_S. */
export function widgetLimits(env: Env): WidgetLimits {
  const windowS = positive(env, "WIDGET_RATE_LIMIT_WINDOW_S", DEFAULT_WINDOW_SECONDS);
  if (!BINDING_PERIODS.includes(windowS))
    throw new Error(`WIDGET_RATE_LIMIT_WINDOW_S must be 10 or 60 (the Rate Limiting binding's periods).`);
  return {
    perKey: positive(env, "WIDGET_RATE_LIMIT_PER_KEY", DEFAULT_PER_KEY),
    perVisitor: positive(env, "WIDGET_RATE_LIMIT_PER_VISITOR", DEFAULT_PER_VISITOR),
    windowS,
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
