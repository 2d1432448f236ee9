/** API keys of a workspace: secret keys and publishable (widget) keys with their allowed origins. */
import { z } from "@hono/zod-openapi";
import { oneLine } from "./one-line";

/** An allowed origin of a publishable key: `scheme://host[:port]`, http or https. */
export const AllowedOrigin = z
  .string()
  .max(300)
  .refine((o) => {
    try {
      const u = new URL(o);
      return (u.protocol === "https:" || u.protocol === "http:") && u.origin === o;
    } catch {
      return false;
    }
  }, "an origin like https://example.com (scheme, host and port only)")
  .describe("An origin the widget may run on, e.g. `https://shop.example.com`.");

export const KeyType = z
  .enum(["secret", "publishable"])
  .describe("`secret` uses the whole API; `publishable` (`pk_…`) only the widget, from its allowed origins.");

export const CreateKey = z
  .object({
    name: oneLine(200),
    type: KeyType.default("secret"),
    allowed_origins: z.array(AllowedOrigin).max(50).default([]).describe("Required for publishable keys."),
  })
  .refine((k) => k.type !== "publishable" || k.allowed_origins.length > 0, {
    message: "a publishable key needs at least one allowed origin",
    path: ["allowed_origins"],
  })
  .openapi("CreateKey");
export type CreateKey = z.infer<typeof CreateKey>;

export const UpdateKey = z
  .object({
    name: oneLine(200).optional(),
    allowed_origins: z.array(AllowedOrigin).max(50).optional(),
  })
  .openapi("UpdateKey");

export const KeyInfo = z
  .object({
    id: z.string(),
    name: z.string(),
    type: KeyType,
    prefix: z.string(),
    allowed_origins: z.array(z.string()),
    created_at: z.number(),
  })
  .openapi("Key");
export const CreatedKey = KeyInfo.extend({
  key: z.string().describe("The key. Shown once; only its hash is stored."),
}).openapi("CreatedKey");
