/** A workspace as the API creates and shows it. */
import { z } from "@hono/zod-openapi";

export const CreateWorkspace = z.object({ name: z.string().min(1).max(200) }).openapi("CreateWorkspace");
export const Workspace = z
  .object({ id: z.string(), name: z.string(), created_at: z.number() })
  .openapi("Workspace");
