/** Example custom tools showing every kind of return value and error; enabled with EXAMPLE_TOOLS=true. */
import { z } from "zod";
import { ModelRetry, tools } from "../durable-objects/engine/custom-tools/define";

const Price = z.object({ sku: z.string(), price: z.number(), currency: z.literal("EUR") });

/** Registers the example tools on the deployment's registry. */
export function registerExampleTools(): void {
  tools.action(
    "Current price of a product by SKU (SKUs look like ABC-123).",
    { parameters: z.object({ sku: z.string().describe("The product SKU, e.g. ABC-123.") }) },
    async function get_price({ sku }) {
      if (!/^[A-Z]{3}-\d{3}$/.test(sku))
        throw new ModelRetry(`"${sku}" is not a SKU; SKUs look like ABC-123.`);
      if (sku === "ERR-500") throw new Error("price database unavailable");
      await new Promise((r) => setTimeout(r, 1));
      return Price.parse({ sku, price: 19.99, currency: "EUR" });
    },
  );
  tools.action(
    "Shout a text back in capitals.",
    { parameters: z.object({ text: z.string().describe("Text to shout.") }) },
    function shout({ text }) {
      return text.toUpperCase();
    },
  );
  tools.action(
    "Look up an order's status.",
    { parameters: z.object({ order_id: z.string().describe("Order id.") }) },
    function order_status({ order_id }) {
      return order_id === "missing"
        ? { extracted_content: null, error: `Order ${order_id} does not exist.` }
        : { extracted_content: `Order ${order_id} shipped yesterday.` };
    },
  );
  tools.action(
    "Open a connection to the legacy CRM (returns a client object).",
    { parameters: z.object({}) },
    function crm_client() {
      return new CrmClient();
    },
  );
}

class CrmClient {
  toString(): string {
    return "<CrmClient connected to crm.internal>";
  }
}
