/**
 * The tool framework: a tool is declared once with zod (name, description, parameters,
 * execute); the same schema validates the model's arguments and produces the JSON Schema
 * the model sees.
 */
import { z } from "zod";
import type { PendingQuestion, PendingTakeover } from "../../../schemas/events";
import { TOOL_NAME_PATTERN } from "../../../schemas/patterns";
import { CirrusError } from "../errors";
import type { ToolSpec } from "../model/model-types";
import type { Redaction } from "../secrets/secret-redactor";
import { type OfferLimits, type Offering, planOffering } from "./tool-offer";
import type { Tool, ToolContext } from "./tool-types";

export type { Tool, ToolContext };

/** Tool names the model may use, as OpenAI and the custom-tool rules require. */
export { TOOL_NAME_PATTERN };

/** Declares a tool with its argument types inferred from the zod schema. */
export function defineTool<S extends z.ZodType>(tool: Tool<S>): Tool<S> {
  if (!TOOL_NAME_PATTERN.test(tool.name)) {
    throw new TypeError(`tool name "${tool.name}" must match ${TOOL_NAME_PATTERN.source}`);
  }
  return tool;
}

/** An expected failure of a tool the model should read, e.g. "task not found". */
export class ToolError extends CirrusError {}

/** Thrown by a tool to ask the model to call it again with better arguments (like ModelRetry). */
export class RetryRequest extends CirrusError {
  constructor(message: string, options?: { cause?: unknown }) {
    super("retry_requested", message, options);
  }
}

const SUSPEND = Symbol.for("cirrus.suspend");

/** Returned by a tool that must wait for a person: the run pauses until they answer or hand back. */
export type Suspension = { [SUSPEND]: true } & (
  | { question: PendingQuestion; takeover?: undefined }
  | { takeover: PendingTakeover; question?: undefined }
);

/** Builds a {@link Suspension} for a question (ask_user). */
export function suspend(question: PendingQuestion): Suspension {
  return { [SUSPEND]: true, question };
}

/** Builds a {@link Suspension} for a take-over of a tab (request_takeover). */
export function suspendForTakeover(takeover: PendingTakeover): Suspension {
  return { [SUSPEND]: true, takeover };
}

/** Whether a tool's return value asks the run to pause. */
export function isSuspension(value: unknown): value is Suspension {
  return typeof value === "object" && value !== null && SUSPEND in value;
}

const FINISH = Symbol.for("cirrus.finish");

/** Returned by `finish`: the run ends with this result. */
export interface Finish {
  [FINISH]: true;
  result: unknown;
}

/** Builds a {@link Finish}. */
export function finishWith(result: unknown): Finish {
  return { [FINISH]: true, result };
}

/** Whether a tool's return value ends the run. */
export function isFinish(value: unknown): value is Finish {
  return typeof value === "object" && value !== null && FINISH in value;
}

/**
 * The JSON Schema of a tool's parameters, in the shape function-calling APIs accept. The bounds
 * zod gives every integer (±2^53−1, the safe-integer range) are left out: they say nothing to the
 * model and cost tokens on every request (zod still checks them when a call comes in).
 */
export function parametersJsonSchema(schema: z.ZodType): Record<string, unknown> {
  const json = z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }) as Record<string, unknown>;
  delete json.$schema;
  return withoutSafeIntegerBounds(json) as Record<string, unknown>;
}

function withoutSafeIntegerBounds(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(withoutSafeIntegerBounds);
  if (!node || typeof node !== "object") return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === "maximum" && value === Number.MAX_SAFE_INTEGER) continue;
    if (key === "minimum" && value === Number.MIN_SAFE_INTEGER) continue;
    out[key] = withoutSafeIntegerBounds(value);
  }
  return out;
}

/** Which tool names a registry may ever hold (e.g. a widget visitor's policy), enforced by the server. */
export interface ToolGate {
  allows(name: string): boolean;
  /** Why a call of a name the gate refuses is not run, for the model to read. */
  refusal(name: string): string;
}

/** A named set of tools. */
export class ToolRegistry {
  private readonly tools = new Map<string, Tool>();
  /** Applied to every outcome before anyone sees it: typed secrets' values become `<secret:name>`. */
  redaction?: Redaction;
  private cachedOffering: Offering | null = null;
  private gate: ToolGate | null = null;
  private limits: OfferLimits | null = null;

  constructor(tools: Iterable<Tool> = []) {
    for (const t of tools) this.add(t);
  }

  /**
   * Drops every tool the gate refuses and keeps refusing them: tools added later (an MCP
   * server's) are skipped, and {@link refusal} names a call of one as not allowed.
   */
  restrict(gate: ToolGate): this {
    this.gate = gate;
    for (const name of this.names()) if (!gate.allows(name)) this.remove(name);
    return this;
  }

  /** Why a call of `name` must not run here, or null when the registry's gate (if any) allows it. */
  refusal(name: string): string | null {
    // The tool search reaches only tools the gate allowed (tool-offer.ts).
    if (this.offering().searchTools.has(name)) return null;
    return this.gate && !this.gate.allows(name) ? this.gate.refusal(name) : null;
  }

  /** Adds a tool, replacing one of the same name; a name the gate refuses is left out. */
  add(tool: Tool): this {
    if (!TOOL_NAME_PATTERN.test(tool.name)) {
      throw new TypeError(`tool name "${tool.name}" must match ${TOOL_NAME_PATTERN.source}`);
    }
    if (this.gate && !this.gate.allows(tool.name)) return this;
    this.tools.set(tool.name, tool);
    this.cachedOffering = null;
    return this;
  }

  /** Removes a tool (an MCP server withdrew it); true when it was there. */
  remove(name: string): boolean {
    this.cachedOffering = null;
    return this.tools.delete(name);
  }

  /** Past these limits the searchable tools are found with `find_tools` instead of listed. */
  limitOffer(limits: OfferLimits | null): this {
    this.limits = limits;
    this.cachedOffering = null;
    return this;
  }

  get offerLimits(): OfferLimits | null {
    return this.limits;
  }

  /** A tool by name: a registered one, or `find_tools` / `call_tool` while they stand for unlisted tools. */
  get(name: string): Tool | undefined {
    return this.tools.get(name) ?? this.offering().searchTools.get(name);
  }

  names(): string[] {
    return [...this.tools.keys()];
  }

  /** The tools as offered to the model. */
  specs(): ToolSpec[] {
    return this.offering().specs;
  }

  /** What the model is offered: every tool, or past the limits the listed ones and the tool search. */
  offering(): Offering {
    this.cachedOffering ??= planOffering([...this.tools.values()], specOf, this.limits);
    return this.cachedOffering;
  }
}

/** A tool's definition as a request lists it. */
function specOf(t: Tool): ToolSpec {
  return {
    name: t.name,
    description: t.description,
    parameters: t.jsonSchema ?? parametersJsonSchema(t.parameters),
  };
}
