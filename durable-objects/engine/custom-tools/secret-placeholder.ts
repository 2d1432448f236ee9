/**
 * The secret-placeholder rule: a `<secret>name</secret>` in a custom tool's arguments is never
 * replaced; the tool does not run and the model is told to type secrets in the browser instead.
 */
import { ToolError } from "../tools/tool";

const PLACEHOLDER = /<secret>\s*[^<]*<\/secret>/i;

/** Throws a ToolError when any string inside `args` holds a secret placeholder. */
export function refuseSecretPlaceholders(toolName: string, args: unknown): void {
  if (!containsPlaceholder(args)) return;
  throw new ToolError(
    "secret_placeholder",
    `${toolName} was not run: its arguments contain a <secret>…</secret> placeholder, and custom tools never receive secrets. To enter a secret on a web page, use type_secret(selector, name) in the browser.`,
  );
}

function containsPlaceholder(value: unknown): boolean {
  if (typeof value === "string") return PLACEHOLDER.test(value);
  if (Array.isArray(value)) return value.some(containsPlaceholder);
  if (value && typeof value === "object")
    return Object.entries(value).some(([k, v]) => PLACEHOLDER.test(k) || containsPlaceholder(v));
  return false;
}
