/**
 * Custom tools for teams deploying their own Cirrus: a typed function becomes a tool.
 *
 *   tools.action("Look up the price of a SKU", { parameters: z.object({ sku: z.string() }) },
 *     async ({ sku }) => db.price(sku));
 *
 * The function receives only the arguments the model passes. It may return a string, any
 * JSON-able value, or an action result `{ extracted_content, error }`; throwing does not end
 * the run (the model reads the error) and `ModelRetry` asks the model to call again.
 */
import { z } from "zod";
import { RetryRequest, TOOL_NAME_PATTERN, type Tool, ToolError } from "../tools/tool";
import { RESERVED_TOOL_NAMES } from "./reserved-names";
import { refuseSecretPlaceholders } from "./secret-placeholder";

/** Thrown by a custom tool to ask the model for better arguments (the seed's ModelRetry). */
export class ModelRetry extends RetryRequest {}

/** The action-result form of a return value. */
export interface ActionResult {
  extracted_content?: string | null;
  error?: string | null;
}

/** What a custom tool may return. */
export type ActionReturn = string | number | boolean | null | undefined | ActionResult | object;

/** Options of {@link Tools.action}. */
export interface ActionOptions<S extends z.ZodObject> {
  parameters?: S;
  /** The 0.x name for `parameters`, kept for ported actions. */
  param_model?: S;
  /** Defaults to the function's name. */
  name?: string;
  timeoutMs?: number;
}

/** Options that make no sense here: what each should be replaced by. */
const REFUSED_OPTIONS: Record<string, string> = {
  is_done: "end the run with finish",
  success: "end the run with finish",
  attachments: "save files in the workspace with opfs_write",
  images: "save files in the workspace with opfs_write",
  domains: "limit navigation with allowed_domains on the conversation or workspace",
  allowed_domains: "limit navigation with allowed_domains on the conversation or workspace",
  page_filter: "limit navigation with allowed_domains on the conversation or workspace",
  requires_browser: "tools get only the arguments the model passes",
  terminates_sequence: "end the run with finish",
  exclude_actions: "there are no built-in actions to exclude",
};
const IGNORED_OPTIONS = new Set(["include_in_memory", "include_extracted_content_only_once"]);
/** 0.x injected parameters: a tool gets only the arguments the model passes. */
const INJECTED_PARAMS = new Set([
  "browser_session",
  "browser",
  "page",
  "page_extraction_llm",
  "file_system",
  "available_file_paths",
  "sensitive_data",
  "has_sensitive_data",
  "context",
]);
const REFUSED_RESULT_KEYS = ["is_done", "success", "attachments", "images"];

/** A registry of custom tools (`Controller` is an alias). */
export class Tools {
  private readonly registered = new Map<string, Tool>();

  /** Registers `fn` as a tool; registering a name again replaces the earlier tool. */
  action<S extends z.ZodObject>(
    description: string,
    options: ActionOptions<S> & Record<string, unknown>,
    fn: (args: z.infer<S>) => ActionReturn | Promise<ActionReturn>,
  ): Tool {
    if (typeof description !== "string" || !description.trim()) {
      throw new TypeError(
        "tools.action needs a description: tools.action('what it does', { parameters }, fn)",
      );
    }
    for (const [key, instead] of Object.entries(REFUSED_OPTIONS)) {
      if (key in options) throw new TypeError(`tools.action option "${key}" is not supported: ${instead}.`);
    }
    for (const key of Object.keys(options)) {
      if (IGNORED_OPTIONS.has(key))
        console.warn(`tools.action option "${key}" is ignored: every result stays in the conversation.`);
    }
    const name = options.name ?? fn.name;
    if (!name || !TOOL_NAME_PATTERN.test(name)) {
      throw new TypeError(
        `custom tool name "${name}" must match ${TOOL_NAME_PATTERN.source} (pass { name } for anonymous functions).`,
      );
    }
    if (RESERVED_TOOL_NAMES.has(name))
      throw new TypeError(`custom tool name "${name}" is taken by a built-in tool.`);
    const parameters = (options.parameters ?? options.param_model ?? z.object({})) as S;
    const injected = Object.keys(parameters.shape).filter((k) => INJECTED_PARAMS.has(k));
    if (injected.length) {
      throw new TypeError(
        `custom tool "${name}" declares injected parameter(s) ${injected.join(", ")}: a tool gets only the arguments the model passes.`,
      );
    }
    const tool: Tool = {
      name,
      description,
      parameters,
      timeoutMs: options.timeoutMs,
      execute: async (args) => {
        refuseSecretPlaceholders(name, args);
        return normalizeReturn(name, await fn(args as z.infer<S>));
      },
    };
    this.registered.set(name, tool);
    return tool;
  }

  /** Every registered tool. */
  list(): Tool[] {
    return [...this.registered.values()];
  }

  /** Removes every registration (tests). */
  clear(): void {
    this.registered.clear();
  }
}

/** The 0.x name of {@link Tools}. */
export const Controller = Tools;

/** Maps what a custom tool returned to what the model reads. */
export function normalizeReturn(name: string, value: ActionReturn): unknown {
  if (value === null || value === undefined || typeof value !== "object") return value ?? null;
  if (!Array.isArray(value) && ("extracted_content" in value || "error" in value)) {
    const refused = REFUSED_RESULT_KEYS.filter((k) => k in value);
    if (refused.length) {
      throw new TypeError(
        `${name} returned an action result with ${refused.join(", ")}: end the run with finish and save files in the workspace instead.`,
      );
    }
    const result = value as ActionResult;
    if (result.error) throw new ToolError("tool_error", result.error);
    return result.extracted_content ?? null;
  }
  const proto = Object.getPrototypeOf(value);
  const plain = proto === Object.prototype || proto === null || Array.isArray(value);
  if (!plain && typeof (value as { toJSON?: unknown }).toJSON !== "function") return String(value);
  return value;
}

/** The deployment's custom tools. Register yours in `worker/custom-tools.ts`. */
export const tools = new Tools();
