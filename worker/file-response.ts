/** Serving a workspace file over HTTP: the right Content-Type, and single byte ranges (206/416). */
import type { WorkspaceFiles } from "../durable-objects/engine/files/workspace-files";
import { ApiError } from "./errors";

/** A byte range of a file. */
export interface ByteRange {
  offset: number;
  length: number;
}

/**
 * Reads a `Range` header against a file size: a range, "unsatisfiable", or null to send the whole
 * file (no header, a malformed one, or several ranges, which RFC 9110 lets a server ignore).
 */
export function parseRange(header: string | undefined, size: number): ByteRange | "unsatisfiable" | null {
  const m = header ? /^bytes=(\d*)-(\d*)$/.exec(header.trim()) : null;
  if (!m || (m[1] === "" && m[2] === "")) return null;
  if (m[1] === "") {
    const suffix = Number(m[2]);
    if (suffix === 0 || size === 0) return "unsatisfiable";
    const length = Math.min(suffix, size);
    return { offset: size - length, length };
  }
  const start = Number(m[1]);
  const end = m[2] === "" ? size - 1 : Number(m[2]);
  if (start >= size) return "unsatisfiable";
  if (end < start) return null;
  return { offset: start, length: Math.min(end, size - 1) - start + 1 };
}

/** Percent-encodes a file name for `filename*=` (RFC 5987 leaves out ' ( ) * as well). */
const rfc5987 = (name: string) =>
  encodeURIComponent(name).replace(/['()*]/g, (ch) => `%${ch.charCodeAt(0).toString(16).toUpperCase()}`);

/** Headers that keep a served file from running as part of the API's origin. */
const SAFE_HEADERS = {
  "x-content-type-options": "nosniff",
  "content-security-policy": "sandbox",
};

/** Answers a GET/HEAD of a workspace file, honouring a single `Range`. */
export async function serveFile(
  files: WorkspaceFiles,
  path: string,
  request: Request,
  extra: Record<string, string> = {},
): Promise<Response> {
  const file = await files.stat(path);
  if (!file) throw new ApiError(404, "not_found", `There is no file "${path}".`);
  const name = file.path.slice(file.path.lastIndexOf("/") + 1);
  const headers = new Headers({
    ...SAFE_HEADERS,
    ...extra,
    "content-type": file.type,
    "accept-ranges": "bytes",
    "last-modified": new Date(file.modified).toUTCString(),
    "content-disposition": `inline; filename*=UTF-8''${rfc5987(name)}`,
  });
  const range = parseRange(request.headers.get("range") ?? undefined, file.size);
  if (range === "unsatisfiable") {
    headers.set("content-range", `bytes */${file.size}`);
    headers.set("content-type", "application/json");
    const body = { error: { code: "range_not_satisfiable", message: `The file has ${file.size} bytes.` } };
    return new Response(JSON.stringify(body), { status: 416, headers });
  }
  const object = await files.open(file.path, range ?? undefined);
  if (!object) throw new ApiError(404, "not_found", `There is no file "${path}".`);
  headers.set("etag", object.httpEtag);
  headers.set("content-length", String(range ? range.length : file.size));
  if (range)
    headers.set("content-range", `bytes ${range.offset}-${range.offset + range.length - 1}/${file.size}`);
  const body = request.method === "HEAD" ? null : object.body;
  if (!body) object.body.cancel().catch(() => {});
  return new Response(body, { status: range ? 206 : 200, headers });
}
