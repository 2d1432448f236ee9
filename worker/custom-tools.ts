/**
 * Your deployment's own tools. Register them here with `tools.action(...)`; every conversation
 * gets them next to the built-in tools. See README → "Custom tools".
 *
 *   import { z } from "zod";
 *   import { tools } from "../durable-objects/engine/custom-tools/define";
 *
 *   tools.action("Current price of a product by SKU", { parameters: z.object({ sku: z.string() }) },
 *     async function get_price({ sku }) { return (await fetch(`https://prices.internal/${sku}`)).json(); });
 */
import { env } from "cloudflare:workers";
import { envVarAtLoad } from "../durable-objects/engine/config/env";
import { registerExampleTools } from "./example-tools";

// Example tools for local trials and the test-suite; off unless EXAMPLE_TOOLS=true.
if (envVarAtLoad(env, "EXAMPLE_TOOLS")) registerExampleTools();
