/**
 * The finish tool: delivers the run's result and ends the run. With an output schema the
 * result is validated first, and a mismatch asks the model to fix it.
 */
import { Validator } from "@cfworker/json-schema";
import { z } from "zod";
import { defineTool, finishWith, RetryRequest, type Tool } from "./tool";

/** Errors listed back to the model when a result does not match the schema. */
const MAX_LISTED_ERRORS = 8;

/** A compiled output schema: checks a value and explains what does not match. */
export interface OutputCheck {
  check(value: unknown): string[];
}

const JSON_TYPES = new Set(["string", "number", "integer", "boolean", "object", "array", "null"]);

/** Structural checks the validator does not make: the keywords that shape a schema are well typed. */
function schemaProblems(schema: unknown, at = "#"): string[] {
  if (typeof schema === "boolean") return [];
  if (!schema || typeof schema !== "object" || Array.isArray(schema))
    return [`${at} must be an object or a boolean`];
  const s = schema as Record<string, unknown>;
  const out: string[] = [];
  const types = Array.isArray(s.type) ? s.type : s.type === undefined ? [] : [s.type];
  for (const t of types)
    if (typeof t !== "string" || !JSON_TYPES.has(t))
      out.push(`${at}/type: ${JSON.stringify(t)} is not a JSON type`);
  if (
    s.required !== undefined &&
    !(Array.isArray(s.required) && s.required.every((r) => typeof r === "string"))
  ) {
    out.push(`${at}/required must be a list of property names`);
  }
  if (s.properties !== undefined) {
    if (!s.properties || typeof s.properties !== "object") out.push(`${at}/properties must be an object`);
    else
      for (const [k, v] of Object.entries(s.properties))
        out.push(...schemaProblems(v, `${at}/properties/${k}`));
  }
  if (s.items !== undefined && !Array.isArray(s.items)) out.push(...schemaProblems(s.items, `${at}/items`));
  return out;
}

/** Compiles a JSON Schema; throws a TypeError when the schema itself is not usable. */
export function compileOutputSchema(schema: Record<string, unknown>): OutputCheck {
  const problems = schemaProblems(schema);
  if (problems.length)
    throw new TypeError(`output_schema is not a usable JSON Schema: ${problems.join("; ")}`);
  let validator: Validator;
  try {
    validator = new Validator(schema as never, "2020-12", false);
    validator.validate(null);
  } catch (err) {
    throw new TypeError(`output_schema is not a usable JSON Schema: ${(err as Error).message}`);
  }
  return {
    check(value) {
      const result = validator.validate(value as never);
      if (result.valid) return [];
      return result.errors
        .filter((e) => e.keyword !== "properties" && e.keyword !== "items" && e.keyword !== "$ref")
        .slice(0, MAX_LISTED_ERRORS)
        .map((e) => `${e.instanceLocation || "#"}: ${e.error}`);
    },
  };
}

export const FinishArgs = z.object({
  result: z
    .unknown()
    .describe(
      "The result of the work: text, or a JSON value (matching the output schema when one is given).",
    ),
});

/** Creates `finish`, optionally bound to an output schema. */
export function createFinishTool(outputSchema: Record<string, unknown> | null): Tool {
  const checker = outputSchema ? compileOutputSchema(outputSchema) : null;
  const schemaNote = outputSchema
    ? ` The result must match this JSON Schema: ${JSON.stringify(outputSchema)}`
    : "";
  return defineTool({
    name: "finish",
    description: `Deliver the final result and end the run. Call it once, when the work is done.${schemaNote}`,
    parameters: FinishArgs,
    execute: ({ result }) => {
      if (result === undefined) throw new RetryRequest("finish needs a `result`.");
      const errors = checker?.check(result) ?? [];
      if (errors.length) {
        throw new RetryRequest(
          `The result does not match the output schema:\n- ${errors.join("\n- ")}\nFix the result.`,
        );
      }
      return finishWith(result);
    },
  });
}
