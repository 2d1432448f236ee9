/**
 * Keeps the values of the secrets typed in a conversation out of everything that leaves a tool or
 * a run: the value itself and the forms a script can turn it into with one call — JSON-escaped
 * (also with `/` as `\/`) and URL-escaped, base64 (standard, URL-safe, unpadded, and as it appears
 * inside a longer encoded string), hex and reversed — are replaced by `<secret:name>`.
 */

/** Derived forms shorter than this are not redacted (they would match ordinary text). */
const MIN_FORM_CHARS = 6;

/** Marker put where a secret's value (or a form of it) would appear. */
export const secretMarker = (name: string) => `<secret:${name}>`;

const utf8 = (s: string) => new TextEncoder().encode(s);

function base64(bytes: Uint8Array): string {
  let bin = "";
  for (const b of bytes) bin += String.fromCharCode(b);
  return btoa(bin);
}

/** The base64 characters that depend only on the value's bytes when it starts `shift` bytes into a group. */
function base64Core(bytes: Uint8Array, shift: number): string {
  const padded = new Uint8Array(shift + bytes.length);
  padded.set(bytes, shift);
  const full = Math.floor(padded.length / 3) * 3;
  // Whole groups only, and none that holds a byte before the value.
  const first = shift === 0 ? 0 : 3;
  return full > first ? base64(padded.slice(first, full)) : "";
}

/** Every form of `value` that is redacted, longest first. */
export function secretForms(value: string): string[] {
  const bytes = utf8(value);
  const latin1 = [...value].every((c) => c.charCodeAt(0) <= 0xff);
  const b64 = base64(bytes);
  const json = JSON.stringify(value).slice(1, -1);
  const derived = [
    json,
    // JSON as PHP's json_encode (and others) write it: every "/" escaped, which parses back whole.
    json.replaceAll("/", "\\/"),
    encodeURIComponent(value),
    b64,
    b64.replace(/=+$/, ""),
    b64.replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, ""),
    ...(latin1 ? [btoa(value)] : []),
    base64Core(bytes, 1),
    base64Core(bytes, 2),
    [...bytes].map((b) => b.toString(16).padStart(2, "0")).join(""),
    [...bytes].map((b) => b.toString(16).padStart(2, "0").toUpperCase()).join(""),
    [...value].reverse().join(""),
  ].filter((f) => f.length >= MIN_FORM_CHARS);
  const forms = new Set([value, ...derived]);
  forms.delete("");
  return [...forms].sort((a, b) => b.length - a.length);
}

/** The typed secrets of one conversation and the redaction of their values. */
export class SecretRedactor {
  private readonly values = new Map<string, Set<string>>();
  private forms: [string, string][] | null = null;

  /** Adds a value (a secret's, or a one-time code typed from it) under the secret's name. */
  remember(name: string, value: string): void {
    if (!value) return;
    const set = this.values.get(name) ?? new Set<string>();
    set.add(value);
    this.values.set(name, set);
    this.forms = null;
  }

  /** Whether a value is known for this name. */
  knows(name: string): boolean {
    return this.values.has(name);
  }

  /** Replaces every form of every known value in a string. */
  text(s: string): string {
    let out = s;
    for (const [form, name] of this.allForms()) {
      if (out.includes(form)) out = out.split(form).join(secretMarker(name));
    }
    return out;
  }

  /** Characters of the longest redacted form (0 when no secret is known). */
  longest(): number {
    return this.allForms()[0]?.[0].length ?? 0;
  }

  /** The first index at or after `cut` that no occurrence of a form starting before it spans. */
  safeCut(s: string, cut: number): number {
    let at = cut;
    for (let moved = true; moved; ) {
      moved = false;
      for (const [form] of this.allForms()) {
        for (let i = s.indexOf(form); i >= 0 && i < at; i = s.indexOf(form, i + 1)) {
          if (i + form.length > at) {
            at = i + form.length;
            moved = true;
          }
        }
      }
    }
    return at;
  }

  private allForms(): [string, string][] {
    this.forms ??= [...this.values]
      .flatMap(([name, vs]) =>
        [...vs].flatMap((v) => secretForms(v).map((f) => [f, name] as [string, string])),
      )
      .sort((a, b) => b[0].length - a[0].length);
    return this.forms;
  }

  /** Redacts a string, an Error's message or any JSON value (walked through its JSON text). */
  value<T>(value: T): T {
    if (this.values.size === 0) return value;
    if (value instanceof Error) {
      value.message = this.text(value.message);
      return value;
    }
    if (typeof value === "string") return this.text(value) as T;
    let json: string | undefined;
    try {
      json = JSON.stringify(value);
    } catch {
      return value;
    }
    if (json === undefined || this.text(json) === json) return value;
    return this.walk(JSON.parse(json)) as T;
  }

  private walk(v: unknown): unknown {
    if (typeof v === "string") return this.text(v);
    if (Array.isArray(v)) return v.map((x) => this.walk(x));
    if (v && typeof v === "object") {
      return Object.fromEntries(Object.entries(v).map(([k, x]) => [this.text(k), this.walk(x)]));
    }
    return v;
  }
}

/** The redaction the loop and the tool runner apply (loaded before use: values may come from storage). */
export interface Redaction {
  /** Loads the values of secrets typed before the object last woke. */
  ready(): Promise<void>;
  /** Redacts a string (synchronous, after ready()). */
  text(s: string): string;
  /** Redacts any JSON value, string or Error (synchronous, after ready()). */
  value<T>(v: T): T;
  /** Characters of the longest redacted form: text streamed in pieces holds back this many less one. */
  longest(): number;
  /** Where streamed text may be cut: at or after `cut`, never inside a form. */
  safeCut(s: string, cut: number): number;
}

/** A redactor as a {@link Redaction}, with `ready` loading the values typed before a wake. */
export function redactionOf(redactor: SecretRedactor, ready: () => Promise<void>): Redaction {
  return {
    ready,
    text: (s) => redactor.text(s),
    value: (v) => redactor.value(v),
    longest: () => redactor.longest(),
    safeCut: (s, cut) => redactor.safeCut(s, cut),
  };
}
