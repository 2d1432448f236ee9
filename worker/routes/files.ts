/**
 * The workspace's files for people and programs: list, download (with Range), streamed upload
 * and delete, all inside the caller's workspace. `{path}` may contain slashes.
 */
import { createRoute, z } from "@hono/zod-openapi";
import type { Context } from "hono";
import { OCTET_STREAM, typeForName } from "../../durable-objects/engine/files/content-types";
import { FilesError } from "../../durable-objects/engine/files/files-error";
import { workspaceFiles } from "../../durable-objects/engine/files/files-factory";
import { normalizePath } from "../../durable-objects/engine/files/paths";
import { ErrorBody } from "../../schemas/api";
import { FileDeleted, FileInfo, FileList, ListFilesQuery } from "../../schemas/files";
import type { AppEnv } from "../app-env";
import { createApp } from "../app-factory";
import { ApiError } from "../errors";
import { serveFile } from "../file-response";
import { conversationStub } from "../stubs";
import { commonErrors, json } from "./route-helpers";

const FILES_PREFIX = /^\/v1\/files\//;
const CONVERSATION_FILES_PREFIX = /^\/v1\/conversations\/[^/]+\/files\//;
/** Request types that say nothing about the bytes (curl's default), so the name decides. */
const VAGUE_TYPES = /^(application\/x-www-form-urlencoded|multipart\/form-data)\b/i;

const app = createApp();

/** Runs a file operation, answering its expected failures with the API's error shape. */
async function fileOp<T>(op: () => Promise<T>): Promise<T> {
  try {
    return await op();
  } catch (err) {
    if (err instanceof FilesError) throw new ApiError(err.status, err.code, err.message);
    throw err;
  }
}

/** The file path after `prefix` (a pattern of the URL path), percent-decoded segment by segment. */
function pathOf(c: Context<AppEnv>, prefix: RegExp = FILES_PREFIX): string {
  const raw = new URL(c.req.url).pathname.replace(prefix, "");
  try {
    return raw.split("/").map(decodeURIComponent).join("/");
  } catch {
    throw new ApiError(400, "invalid_path", "The path is not valid percent-encoding.");
  }
}

const files = (c: Context<AppEnv>) => workspaceFiles(c.env, c.get("principal").workspaceId);

app.openAPIRegistry.registerPath({
  method: "get",
  path: "/conversations/{id}/files/{path}",
  summary: "Download a file the agent wrote in this conversation (the widget's download links)",
  description:
    "Serves only files that a tool call of this conversation wrote (e.g. `opfs_write`), so a widget visitor can fetch what the agent made for them and nothing else of the workspace.",
  tags: ["Files"],
  request: { params: z.object({ id: z.string(), path: z.string() }) },
  responses: {
    200: {
      description: "The file, with its Content-Type",
      content: { "*/*": { schema: { type: "string" } } },
    },
    206: { description: "The requested byte range" },
    ...commonErrors,
  },
});
app.get("/conversations/:id/files/*", async (c) => {
  const id = c.req.param("id");
  const path = await fileOp(async () => normalizePath(pathOf(c, CONVERSATION_FILES_PREFIX)));
  const wrote = await conversationStub(c.env, c.get("principal").workspaceId, id).wroteFile(path);
  if (!wrote) throw new ApiError(404, "not_found", "This conversation has not written that file.");
  return fileOp(() => serveFile(files(c), path, c.req.raw));
});

app.openapi(
  createRoute({
    method: "get",
    path: "/files",
    summary: "List a folder of the workspace's files",
    tags: ["Files"],
    request: { query: ListFilesQuery },
    responses: { 200: json(FileList, "The folder's entries"), ...commonErrors },
  }),
  async (c) => {
    const { path, cursor, limit } = c.req.valid("query");
    return c.json(await fileOp(() => files(c).list(path, cursor, limit)), 200);
  },
);

const PathParam = z.object({
  path: z.string().openapi({ param: { name: "path", in: "path" }, example: "reports/2026-11.md" }),
});
const fileErrors = {
  ...commonErrors,
  409: json(ErrorBody, "A folder is in the way"),
  413: json(ErrorBody, "Too large"),
};

app.openAPIRegistry.registerPath({
  method: "get",
  path: "/files/{path}",
  summary: "Download a file; a single `Range: bytes=…` answers 206 (or 416 when out of range)",
  tags: ["Files"],
  request: { params: PathParam },
  responses: {
    200: {
      description: "The file, with its Content-Type",
      content: { "*/*": { schema: { type: "string" } } },
    },
    206: { description: "The requested byte range" },
    416: json(ErrorBody, "The range lies outside the file"),
    ...commonErrors,
  },
});
app.get("/files/*", (c) => fileOp(() => serveFile(files(c), pathOf(c), c.req.raw)));

app.openAPIRegistry.registerPath({
  method: "put",
  path: "/files/{path}",
  summary: "Upload a file, streamed to storage (with Content-Length, or chunked as a multipart upload)",
  description:
    "The body is the file's bytes; Content-Type is stored (guessed from the name when absent). Parent folders are implicit. Answers 201 for a new file, 200 for a replaced one.",
  tags: ["Files"],
  request: {
    params: PathParam,
    body: { content: { "*/*": { schema: { type: "string", format: "binary" } } }, required: true },
  },
  responses: { 200: json(FileInfo, "Replaced"), 201: json(FileInfo, "Created"), ...fileErrors },
});
app.put("/files/*", async (c) => {
  const path = pathOf(c);
  const given = c.req.header("content-type");
  const type = given && !VAGUE_TYPES.test(given) ? given : typeForName(path, OCTET_STREAM);
  const lengthHeader = c.req.header("content-length");
  const body = c.req.raw.body;
  const written = await fileOp(async () => {
    if (lengthHeader !== undefined || !body) {
      const length = Number(lengthHeader ?? "0");
      if (!Number.isSafeInteger(length) || length < 0)
        throw new FilesError("length_required", "Content-Length must be a byte count.");
      return files(c).write(path, body ?? new Uint8Array(), length, type);
    }
    return files(c).writeUnsized(path, body, type);
  });
  const { created, ...view } = written;
  return c.json(view, created ? 201 : 200);
});

app.openAPIRegistry.registerPath({
  method: "delete",
  path: "/files/{path}",
  summary: "Delete a file, or a folder with everything under it",
  tags: ["Files"],
  request: { params: PathParam },
  responses: { 200: json(FileDeleted, "Deleted"), ...fileErrors },
});
app.delete("/files/*", async (c) => c.json(await fileOp(() => files(c).remove(pathOf(c))), 200));

export default app;
