/**
 * What a person is shown of a call's arguments: the parsed JSON with secret values replaced —
 * fields whose names say they hold a credential, and every secret the conversation's browser
 * typed (scrubbed by the caller's `scrub`, the same redaction tool results get).
 */

/** Shown instead of a secret value. */
export const REDACTED = "[redacted]";

/** Argument names whose string values are credentials. */
const SECRET_KEY =
  /pass(word|wd|phrase)?$|secret|token|api[_-]?key|authori[sz]ation|cookie|credential|private[_-]?key|access[_-]?key|^pin$|otp|cvv|cvc/i;

/** Parses a call's raw arguments for display; text that is not JSON is shown as it is. */
export function parseArguments(raw: string): unknown {
  try {
    return raw.trim() === "" ? {} : (JSON.parse(raw) as unknown);
  } catch {
    return raw;
  }
}

/** Replaces the values of credential-named fields, at any depth. */
export function redactSecretFields(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(redactSecretFields);
  if (value && typeof value === "object") {
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>).map(([k, v]) => [
        k,
        SECRET_KEY.test(k) && (typeof v === "string" || typeof v === "number")
          ? REDACTED
          : redactSecretFields(v),
      ]),
    );
  }
  return value;
}

/** The arguments as a person sees them: parsed, credential fields and known secret values redacted. */
export async function displayArguments(
  raw: string | Record<string, unknown>,
  scrub?: <T>(value: T) => Promise<T>,
): Promise<unknown> {
  const parsed = typeof raw === "string" ? parseArguments(raw) : raw;
  const fields = redactSecretFields(parsed);
  return scrub ? scrub(fields) : fields;
}
