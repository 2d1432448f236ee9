/**
 * A `tools/call` result as the model reads it: text parts joined; `structuredContent` as JSON;
 * images (and audio, and binary resources) saved to the workspace files — a vision model is then
 * shown the latest image like a screenshot; resource links and text resources as text.
 * `isError: true` becomes a tool error. The runner then applies the result budget and spill.
 */
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { ToolError } from "../tools/tool";

/** Saves bytes to the workspace files; returns the stored path. */
export type SaveBytes = (path: string, bytes: Uint8Array, contentType: string) => Promise<string>;

/** What mapping a result needs. */
export interface ResultContext {
  conversationId: string;
  toolCallId: string;
  /** The model-facing tool name, for file names and captions. */
  toolName: string;
  save?: SaveBytes;
  /** Whether the model is shown images (workspace model_vision). */
  vision: boolean;
}

/** Folder of files MCP tools returned: `mcp/<conversation>/<tool>-<call>-<n>.<ext>`. */
export const MCP_FILES_DIR = "mcp";

const EXTENSIONS: Record<string, string> = {
  "image/png": "png",
  "image/jpeg": "jpg",
  "image/gif": "gif",
  "image/webp": "webp",
  "audio/wav": "wav",
  "audio/mpeg": "mp3",
  "application/pdf": "pdf",
  "application/json": "json",
  "text/plain": "txt",
};

const safe = (s: string) => s.replace(/[^A-Za-z0-9_-]/g, "_").slice(0, 80) || "x";

function decodeBase64(data: string): Uint8Array {
  const bin = atob(data.replace(/\s+/g, ""));
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

/** A saved file as the result lists it. */
interface SavedFile {
  path: string | null;
  mime_type: string;
  bytes: number;
  kind: "image" | "audio" | "resource";
  uri?: string;
  error?: string;
}

/** The text parts and saved files of a result, gathered part by part. */
interface Collected {
  texts: string[];
  files: SavedFile[];
  /** How many files were saved so far (it numbers their names). */
  saved: number;
}

/** One content part of a tool result. */
type ContentPart = NonNullable<CallToolResult["content"]>[number];

/** The model's view of a tool result; throws {@link ToolError} for `isError`. */
export async function mapCallResult(result: CallToolResult, ctx: ResultContext): Promise<unknown> {
  const collected: Collected = { texts: [], files: [], saved: 0 };
  for (const part of result.content ?? []) await collectPart(part, ctx, collected);
  const text = collected.texts.join("\n\n");
  if (result.isError) {
    throw new ToolError("mcp_tool_error", `${ctx.toolName} reported an error: ${text || "(no message)"}`);
  }
  return resultView(text, collected.files, result.structuredContent, ctx);
}

/** Adds one part: text, resource links and text resources as text; images, audio and binary resources saved. */
async function collectPart(part: ContentPart, ctx: ResultContext, collected: Collected): Promise<void> {
  switch (part.type) {
    case "text":
      collected.texts.push(part.text);
      break;
    case "image":
      await saveFile(ctx, collected, part.data, part.mimeType, "image");
      break;
    case "audio":
      await saveFile(ctx, collected, part.data, part.mimeType, "audio");
      break;
    case "resource_link":
      collected.texts.push(
        `[resource link: ${part.name} <${part.uri}>${part.mimeType ? ` (${part.mimeType})` : ""}${part.description ? ` — ${part.description}` : ""}]`,
      );
      break;
    case "resource": {
      const r = part.resource;
      if ("text" in r && typeof r.text === "string")
        collected.texts.push(`--- resource ${r.uri} ---\n${r.text}`);
      else if ("blob" in r && typeof r.blob === "string")
        await saveFile(ctx, collected, r.blob, r.mimeType ?? "application/octet-stream", "resource", r.uri);
      break;
    }
  }
}

/** Saves base64 bytes to the workspace files and notes the file (or why it was not saved) in the text. */
async function saveFile(
  ctx: ResultContext,
  collected: Collected,
  data: string,
  mime: string,
  kind: SavedFile["kind"],
  uri?: string,
): Promise<void> {
  const bytes = decodeBase64(data);
  const ext = EXTENSIONS[mime] ?? "bin";
  const name = `${MCP_FILES_DIR}/${safe(ctx.conversationId)}/${safe(ctx.toolName)}-${safe(ctx.toolCallId)}-${++collected.saved}.${ext}`;
  const file: SavedFile = {
    path: null,
    mime_type: mime,
    bytes: bytes.byteLength,
    kind,
    ...(uri ? { uri } : {}),
  };
  if (!ctx.save) file.error = "saving files is not available here";
  else {
    try {
      file.path = await ctx.save(name, bytes, mime);
    } catch (err) {
      file.error = `not saved: ${(err as Error).message}`;
    }
  }
  collected.files.push(file);
  collected.texts.push(
    file.path
      ? `[${kind} ${mime}, ${file.bytes} bytes, saved to ${file.path}]`
      : `[${kind} ${mime}, ${file.bytes} bytes, ${file.error}]`,
  );
}

/** The text alone, or an object with the text, structured content, files and the image to show. */
function resultView(text: string, files: SavedFile[], structured: unknown, ctx: ResultContext): unknown {
  if (files.length === 0 && structured === undefined) return text;
  const image = ctx.vision ? files.filter((f) => f.kind === "image" && f.path).at(-1) : undefined;
  return {
    ...(text ? { text } : {}),
    ...(structured !== undefined ? { structured_content: structured } : {}),
    ...(files.length ? { files } : {}),
    ...(image ? { image_path: image.path, image_caption: `Image returned by ${ctx.toolName}` } : {}),
  };
}
