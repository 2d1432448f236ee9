/**
 * The values of the request headers a tool is configured with (an HTTP tool's, an MCP server's)
 * are credentials the API keeps write-only. An endpoint that echoes its request back (a debugging
 * server, a misconfigured or compromised one) would hand them to the model, and on to the events,
 * messages, traces and files. So what such a tool returns is redacted: each header's value and, for
 * a `<scheme> <token>` value (`Bearer …`), the token alone, in every form SecretRedactor knows,
 * become `<secret:header:<name>>`. Values shorter than 6 characters are left (ordinary text), and so
 * are the headers that describe content rather than carry a credential (`Content-Type: application/json`
 * would otherwise blank every JSON answer that names its own type) and those that pin an API's
 * version (`X-GitHub-Api-Version: 2022-11-28`, `Notion-Version`, `anthropic-version`: a date, which
 * would otherwise blank that day in every timestamp the API returns).
 */
import { SecretRedactor } from "./secret-redactor";

/** Header values shorter than this are not redacted. */
const MIN_VALUE_CHARS = 6;

/** Standard headers that negotiate content or name the client: never a credential. */
const DESCRIPTIVE_HEADERS = new Set([
  "accept",
  "accept-encoding",
  "accept-language",
  "cache-control",
  "content-language",
  "content-type",
  "user-agent",
]);

/** An API version header: `*-Version` (GitHub's, Notion's, Anthropic's). */
const VERSION_HEADER = /(^|-)version$/;

/** Whether a header (lower-cased name) says what is sent or which API, never who may call it. */
const describesRequest = (name: string) => DESCRIPTIVE_HEADERS.has(name) || VERSION_HEADER.test(name);

/** A redactor of the values of `headers` (none: one that changes nothing). */
export function headerRedactor(headers: Record<string, string> | undefined): SecretRedactor {
  const redactor = new SecretRedactor();
  for (const [name, value] of Object.entries(headers ?? {})) {
    if (describesRequest(name.toLowerCase())) continue;
    const token = /^[A-Za-z][\w-]*\s+(\S+)$/.exec(value.trim())?.[1];
    for (const v of [value, token])
      if (v && v.length >= MIN_VALUE_CHARS) redactor.remember(`header:${name.toLowerCase()}`, v);
  }
  return redactor;
}
