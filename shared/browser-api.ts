/** API schemas of the remote browser's live view and the workspace secret store. */
import { z } from "@hono/zod-openapi";
import { BrowserTab } from "./events";

/** A secret's name: what type_secret and `<secret>name</secret>` refer to. */
export const SecretName = z
  .string()
  .regex(/^[A-Za-z0-9_.-]{1,64}$/, "letters, digits, '_', '.', '-' (1-64)")
  .openapi({ param: { name: "name", in: "path" }, example: "shop_password" });

/** Body of `PUT /v1/secrets/{name}`. */
export const PutSecret = z
  .object({ value: z.string().min(1).max(10_000).describe("The secret's value; it is never returned.") })
  .openapi("PutSecret");
export type PutSecret = z.infer<typeof PutSecret>;

/** A stored secret, by name only. */
export const SecretInfo = z
  .object({ name: z.string(), updated_at: z.number().describe("Epoch milliseconds.") })
  .openapi("SecretInfo");

/** `GET /v1/conversations/{id}/tabs`. */
export const TabList = z
  .object({
    data: z.array(BrowserTab.openapi("BrowserTab")),
    browser: z.object({
      connected: z
        .boolean()
        .describe("Whether a browser session is currently recorded for the conversation."),
      launches: z.number().int().describe("Browsers launched for this conversation so far."),
    }),
  })
  .openapi("TabList");
export type TabList = z.infer<typeof TabList>;
