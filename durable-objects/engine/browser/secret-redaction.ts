/** Blanks typed secrets' values out of a result: each becomes `<secret:name>` (also JSON-escaped forms). */

/** Marker put where a typed secret's value would appear. */
const secretMarker = (name: string) => `<secret:${name}>`;

/** `value` with every secret's value (and its JSON-escaped form) replaced by its marker. */
export function redactSecrets<T>(value: T, secrets: [string, string][]): T {
  const known = secrets.filter(([, v]) => v.length > 0);
  if (known.length === 0) return value;
  const forms = known.flatMap(([n, v]) => [
    [n, v],
    [n, JSON.stringify(v).slice(1, -1)],
  ]);
  const scrub = (s: string) => forms.reduce((acc, [n, v]) => acc.split(v).join(secretMarker(n)), s);
  if (value instanceof Error) {
    value.message = scrub(value.message);
    return value;
  }
  if (typeof value === "string") return scrub(value) as T;
  const json = JSON.stringify(value);
  return json === undefined ? value : (JSON.parse(scrub(json)) as T);
}
