/**
 * An MCP tool's input JSON Schema, adapted where OpenAI's function-calling rules need it: the
 * parameters must be an object schema with `properties`; arrays need `items`; `$schema` and
 * top-level combinators are refused. Arguments are still validated against the server's own
 * schema before a call, so adapting never loosens what the server accepts.
 */
import { Validator } from "@cfworker/json-schema";
import { z } from "zod";

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);
const hasType = (s: Json, t: string) => s.type === t || (Array.isArray(s.type) && s.type.includes(t));

/** Keys whose values are schemas, and keys whose values are maps or lists of schemas. */
const SCHEMA_KEYS = [
  "items",
  "additionalProperties",
  "not",
  "contains",
  "propertyNames",
  "if",
  "then",
  "else",
];
const SCHEMA_MAPS = ["properties", "patternProperties", "$defs", "definitions"];
const SCHEMA_LISTS = ["anyOf", "oneOf", "allOf", "prefixItems"];

/** One schema node made acceptable: objects get `properties`, arrays get `items`. */
function adaptNode(node: unknown, depth: number): unknown {
  if (!isObject(node) || depth > 64) return node;
  const out: Json = { ...node };
  delete out.$schema;
  delete out.$id;
  for (const k of SCHEMA_KEYS) if (k in out) out[k] = adaptNode(out[k], depth + 1);
  for (const k of SCHEMA_MAPS) {
    if (isObject(out[k])) {
      out[k] = Object.fromEntries(
        Object.entries(out[k] as Json).map(([n, s]) => [n, adaptNode(s, depth + 1)]),
      );
    }
  }
  for (const k of SCHEMA_LISTS) {
    if (Array.isArray(out[k])) out[k] = (out[k] as unknown[]).map((s) => adaptNode(s, depth + 1));
  }
  if (hasType(out, "object") && !isObject(out.properties)) out.properties = {};
  if (hasType(out, "array") && !("items" in out) && !("prefixItems" in out)) out.items = {};
  return out;
}

/** The parameters schema the model is offered for an MCP tool's `inputSchema`. */
export function adaptInputSchema(input: unknown): Json {
  const adapted = adaptNode(isObject(input) ? input : {}, 0) as Json;
  const topLevelCombinator = ["anyOf", "oneOf", "allOf", "not", "enum"].some((k) => k in adapted);
  if (hasType(adapted, "object") && !topLevelCombinator) return { ...adapted, type: "object" };
  // Not an object schema the APIs accept at the top: offer an open object and say so.
  return {
    type: "object",
    properties: isObject(adapted.properties) ? adapted.properties : {},
    additionalProperties: true,
    description: "Arguments as the tool's own schema describes them (checked before the call).",
  };
}

/** A zod schema that validates arguments against the server's JSON Schema, with readable errors. */
export function jsonSchemaValidator(schema: unknown): z.ZodType {
  let validator: Validator | null = null;
  try {
    validator = new Validator((isObject(schema) ? schema : {}) as never, "2020-12", false);
  } catch {
    validator = null; // a schema the validator cannot read: the server checks the arguments itself
  }
  return z.unknown().superRefine((value, ctx) => {
    if (!isObject(value)) {
      ctx.addIssue({ code: "custom", message: "arguments must be a JSON object" });
      return;
    }
    const result = validator?.validate(value as never);
    if (!result || result.valid) return;
    for (const e of result.errors
      .filter((x) => !["properties", "items", "$ref", "allOf"].includes(x.keyword))
      .slice(0, 8)) {
      ctx.addIssue({ code: "custom", message: `${e.instanceLocation || "#"}: ${e.error}` });
    }
  });
}
