/**
 * The stored shape of the workspace settings, versioned. Each section row is
 * `{"version": N, ...fields}`; older versions are migrated on read, one step at a time. A row
 * that cannot be read whole is never reset to the defaults: every field that still parses is
 * kept (so a bad `searxng_url` does not drop the search keys), and the problem is reported.
 */
import type { z } from "zod";

/** The version written today. */
export const SETTINGS_VERSION = 2;

/** A section of the settings table. */
export type Section = "search" | "agent" | "widget" | "policy" | "cost";

type Fields = Record<string, unknown>;

/** Version 1 → 2: search had one `base_url` for whichever engine was chosen (now `base_urls`). */
function searchV1(v: Fields): Fields {
  const { base_url, ...rest } = v;
  if (typeof base_url !== "string" || base_url === "") return rest;
  if (rest.engine === "searxng") return { ...rest, searxng_url: rest.searxng_url ?? base_url };
  const urls = (rest.base_urls as Fields | undefined) ?? {};
  return { ...rest, base_urls: { ...urls, [String(rest.engine)]: base_url } };
}

/** Migrations from version N to N + 1, per section (absent: the fields did not change shape). */
const MIGRATIONS: Record<number, Partial<Record<Section, (v: Fields) => Fields>>> = {
  1: { search: searchV1 },
};

/** A section as read: its value, and what was wrong with the stored row (null when nothing). */
export interface SectionRead<T> {
  value: T;
  problem: string | null;
}

/** Decodes one stored row: migrate to today's version, validate, salvage what parses. */
export function decodeSection<T extends Fields>(
  section: Section,
  text: string,
  schema: z.ZodObject,
  defaults: T,
): SectionRead<T> {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return { value: { ...defaults }, problem: "the stored row is not valid JSON" };
  }
  if (!raw || typeof raw !== "object" || Array.isArray(raw))
    return { value: { ...defaults }, problem: "the stored row is not a JSON object" };
  let { version = 1, ...fields } = raw as Fields;
  if (!Number.isInteger(version) || (version as number) < 1 || (version as number) > SETTINGS_VERSION) {
    return salvage(
      schema,
      defaults,
      fields,
      `version ${JSON.stringify(version)} is not one this deployment reads`,
    );
  }
  for (let v = version as number; v < SETTINGS_VERSION; v++)
    fields = MIGRATIONS[v]?.[section]?.(fields) ?? fields;
  version = SETTINGS_VERSION;
  const parsed = schema.safeParse({ ...defaults, ...fields });
  if (parsed.success) return { value: parsed.data as T, problem: null };
  const where = parsed.error.issues.map((i) => `${i.path.join(".") || "(row)"}: ${i.message}`).join("; ");
  return salvage(schema, defaults, fields, where);
}

/** Keeps every field that parses on its own; the others take their defaults. */
function salvage<T extends Fields>(
  schema: z.ZodObject,
  defaults: T,
  fields: Fields,
  problem: string,
): SectionRead<T> {
  const value: Fields = { ...defaults };
  for (const [key, field] of Object.entries(schema.shape)) {
    if (!(key in fields)) continue;
    const one = (field as z.ZodType).safeParse(fields[key]);
    if (one.success) value[key] = one.data;
  }
  return { value: value as T, problem };
}

/** The row written for a section today. */
export function encodeSection(value: object): string {
  return JSON.stringify({ version: SETTINGS_VERSION, ...value });
}

const reported = new Set<string>();

/** Logs a section that could not be read whole, once per row text and isolate; names fields, never values. */
export function reportUnreadable(section: Section, text: string, problem: string): void {
  const key = `${section}\u0000${text}`;
  if (reported.has(key)) return;
  reported.add(key);
  console.error(
    `workspace settings: the stored "${section}" section could not be read whole (${problem}); it is kept as stored, the fields that parse are used and the rest take their defaults until the section is saved again.`,
  );
}
