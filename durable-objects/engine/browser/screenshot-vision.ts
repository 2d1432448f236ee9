/**
 * Screenshots for models that can see: the screenshot tool saves the PNG to the workspace files
 * and its result carries the path; before each model request the latest screenshot in the context
 * is read back and added as a user message with the image (Chat Completions cannot put images in
 * `tool` messages). Only the reference is stored, so the event log and messages hold no base64
 * and the context carries at most one image.
 */
import type { ModelVision } from "../../../schemas/settings";
import type { ChatMessage, ImageMessage, ModelClient } from "../model/model-types";

/** Model names that take image input, for model_vision "auto". */
const VISION_MODELS =
  /(^|\/)(gpt-4o|chatgpt-4o|gpt-4\.1|gpt-4-turbo|gpt-4-vision|gpt-5|o1(?!-mini)|o3|o4)|claude|gemini|vision|llava|pixtral|qwen[\d.]*-?vl|llama-4/i;
/** Images larger than this are not sent to the model (providers refuse them). */
export const MAX_IMAGE_BYTES = 8 * 1024 * 1024;
/** How many of the latest screenshots of the context are sent as images. */
export const MAX_IMAGES_IN_CONTEXT = 1;

/** Whether a conversation's model is sent screenshots as images. */
export function modelSeesImages(setting: ModelVision, model: string): boolean {
  return setting === "auto" ? VISION_MODELS.test(model) : setting;
}

/** The saved image a tool result points to: a screenshot of a tab, or an image an MCP tool returned. */
export interface ScreenshotRef {
  tab_id?: number;
  image_path: string;
  /** Says where the image came from when it is not a screenshot. */
  image_caption?: string;
}

/** The screenshot reference in a tool result's content, or null. */
export function screenshotRef(content: string): ScreenshotRef | null {
  if (!content.includes('"image_path"')) return null;
  try {
    const v = JSON.parse(content) as Partial<ScreenshotRef>;
    if (typeof v.image_path !== "string") return null;
    if (typeof v.tab_id === "number") return { tab_id: v.tab_id, image_path: v.image_path };
    return typeof v.image_caption === "string"
      ? { image_path: v.image_path, image_caption: v.image_caption }
      : null;
  } catch {
    return null;
  }
}

/** Reads a saved image's bytes, or null when it is gone. */
export type ReadImage = (path: string) => Promise<Uint8Array | null>;

function base64(bytes: Uint8Array): string {
  let bin = "";
  for (let i = 0; i < bytes.length; i += 0x8000) {
    bin += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(bin);
}

/** The image's media type from its file name (screenshots are PNG). */
function imageType(path: string): string {
  const ext = /\.([a-z0-9]+)$/i.exec(path)?.[1]?.toLowerCase();
  return ext === "jpg" || ext === "jpeg"
    ? "image/jpeg"
    : ext === "gif" || ext === "webp"
      ? `image/${ext}`
      : "image/png";
}

/** The image message for a screenshot, or null when its file cannot be sent. */
async function imageMessage(ref: ScreenshotRef, read: ReadImage): Promise<ImageMessage | null> {
  const bytes = await read(ref.image_path).catch(() => null);
  if (!bytes || bytes.byteLength > MAX_IMAGE_BYTES) return null;
  const text =
    ref.tab_id === undefined
      ? `${ref.image_caption ?? "Image"} (saved to ${ref.image_path}):`
      : `Screenshot of tab ${ref.tab_id} (taken by the screenshot tool, saved to ${ref.image_path}):`;
  return {
    role: "user",
    content: [
      { type: "text", text },
      { type: "image_url", image_url: { url: `data:${imageType(ref.image_path)};base64,${base64(bytes)}` } },
    ],
  };
}

/** The messages with the latest screenshots added as images right after their tool results. */
export async function withScreenshots(
  messages: (ChatMessage | ImageMessage)[],
  read: ReadImage,
): Promise<(ChatMessage | ImageMessage)[]> {
  const found: { at: number; ref: ScreenshotRef }[] = [];
  for (let i = messages.length - 1; i >= 0 && found.length < MAX_IMAGES_IN_CONTEXT; i--) {
    const m = messages[i];
    const ref = m.role === "tool" ? screenshotRef(m.content) : null;
    if (ref) found.push({ at: i, ref });
  }
  if (found.length === 0) return messages;
  const out = [...messages];
  for (const { at, ref } of found) {
    const image = await imageMessage(ref, read);
    if (!image) continue;
    let end = at + 1;
    while (end < out.length && out[end].role === "tool") end++;
    out.splice(end, 0, image);
  }
  return out;
}

/** A model client that sends the latest screenshot of the context as an image. */
export function withScreenshotImages(inner: ModelClient, read: ReadImage): ModelClient {
  return {
    async complete(req, onDelta) {
      return inner.complete({ ...req, messages: await withScreenshots(req.messages, read) }, onDelta);
    },
  };
}
