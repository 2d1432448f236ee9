/** Patterns shared by the API schemas, the runtime and the web clients (plain regexes, no zod). */

/** Tool names OpenAI-compatible APIs accept. */
export const TOOL_NAME_PATTERN = /^[a-zA-Z0-9_-]{1,64}$/;

/** A CSS colour the widget accepts: hex, rgb()/hsl() or a named colour — nothing that can carry url(). */
export const CSS_COLOUR = /^(#[0-9a-f]{3,8}|(rgb|hsl)a?\([0-9.,%\s/]+\)|[a-z]{3,20})$/i;

/**
 * What a name or title shown to people may not hold: control characters and line breaks (Unicode's
 * line and paragraph separators too) and the bidirectional overrides and isolates that reorder
 * what a dashboard shows ("Trojan Source").
 */
export const NOT_ONE_LINE = /[\p{Cc}\u2028\u2029\u202A-\u202E\u2066-\u2069]/u;
