/** A workspace as the API creates and shows it. */
import { z } from "@hono/zod-openapi";
import { oneLine } from "./one-line";

export const CreateWorkspace = z.object({ name: oneLine(200) }).openapi("CreateWorkspace");
export const Workspace = z
  .object({ id: z.string(), name: z.string(), created_at: z.number() })
  .openapi("Workspace");
