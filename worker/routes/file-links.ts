/**
 * Signed file links, `GET /files/<token>`: a short-lived link to one workspace file that a
 * browser or a page script can fetch without an API key (see durable-objects/files/signed-links.ts).
 * Mounted outside `/v1`, whose routes all need a key.
 */
import { Hono } from "hono";
import { missingKey } from "../../durable-objects/engine/config/keys-config";
import { FilesError } from "../../durable-objects/engine/files/files-error";
import { linkSigner, workspaceFiles } from "../../durable-objects/engine/files/files-factory";
import type { AppEnv } from "../app-env";
import { ApiError } from "../errors";
import { serveFile } from "../file-response";

const CORS = {
  "access-control-allow-origin": "*",
  "access-control-expose-headers": "content-length, content-range, content-type, etag",
  "cache-control": "private, no-store",
};

const app = new Hono<AppEnv>();

app.get("/files/:token", async (c) => {
  const signer = linkSigner(c.env);
  if (!signer) throw missingKey("FILES_SIGNING_SECRET", "file links");
  const claims = await signer.verify(c.req.param("token"));
  if (claims === "expired")
    throw new ApiError(410, "link_expired", "This file link has expired; ask for a new one.");
  if (typeof claims === "string") throw new ApiError(403, "link_invalid", "This file link is not valid.");
  try {
    return await serveFile(workspaceFiles(c.env, claims.ws), claims.path, c.req.raw, CORS);
  } catch (err) {
    if (err instanceof FilesError) throw new ApiError(err.status, err.code, err.message);
    throw err;
  }
});

export default app;
