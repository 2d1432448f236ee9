import { afterAll, describe, expect, it } from "vitest";
import {
  api,
  createConversation,
  modelRequests,
  readSse,
  script,
  uniqueKey,
  untilRunEnd,
} from "../../helpers";
import { BROWSER_TEST_TIMEOUT_MS, page } from "./browser-helpers";

const T = BROWSER_TEST_TIMEOUT_MS;
const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47];

const setVision = (model_vision: boolean | "auto") =>
  api("/v1/settings", { method: "PUT", json: { model_vision } });

type Req = Awaited<ReturnType<typeof modelRequests>>[number];
type Part = { type: string; text?: string; image_url?: { url: string } };
/** The image parts of a model request's messages. */
const imageParts = (r: Req) =>
  r.messages.flatMap((m) =>
    Array.isArray(m.content) ? (m.content as Part[]).filter((p) => p.type === "image_url") : [],
  );

/** Runs a conversation that opens a page and takes a screenshot; returns the model's requests. */
async function screenshotRun(): Promise<{ conv: string; requests: Req[]; result: Record<string, unknown> }> {
  const key = uniqueKey("shot");
  await script(key, [
    { tool_calls: [{ name: "open_tab", arguments: { url: page("/hello") } }] },
    { tool_calls: [{ name: "screenshot", arguments: {} }] },
    { text: "seen" },
  ]);
  const conv = await createConversation(key);
  const res = await api(`/v1/conversations/${conv}/messages`, {
    method: "POST",
    json: { content: "look", stream: false },
  });
  expect(await res.json()).toMatchObject({ status: "succeeded", output: "seen" });
  const requests = await modelRequests(key);
  const toolMsg = requests[2].messages.findLast((m) => m.role === "tool")!;
  return { conv, requests, result: JSON.parse(String(toolMsg.content)) };
}

async function fileBytes(path: string): Promise<{ status: number; type: string | null; bytes: Uint8Array }> {
  const res = await api(`/v1/files/${path}`);
  return {
    status: res.status,
    type: res.headers.get("content-type"),
    bytes: new Uint8Array(await res.arrayBuffer()),
  };
}

describe("screenshot", () => {
  afterAll(async () => {
    await setVision("auto");
  });

  it(
    "saves the PNG to the workspace files and shows it to a vision model right after the tool result",
    async () => {
      expect((await setVision(true)).status).toBe(200);
      const { conv, requests, result } = await screenshotRun();
      expect(result.saved_to).toMatch(new RegExp(`^screenshots/${conv}/tab-1-\\d+\\.png$`));
      expect(result.description).toMatch(/image follows in the next message/);

      const file = await fileBytes(String(result.saved_to));
      expect(file.status).toBe(200);
      expect(file.type).toBe("image/png");
      expect([...file.bytes.slice(0, 4)]).toEqual(PNG_SIGNATURE);

      expect(imageParts(requests[1])).toHaveLength(0);
      const after = requests[2].messages;
      const toolAt = after.findLastIndex((m) => m.role === "tool");
      const image = after[toolAt + 1];
      expect(image.role).toBe("user");
      const parts = image.content as Part[];
      expect(parts[0].text).toMatch(/Screenshot of tab 1/);
      const url = parts[1].image_url!.url;
      expect(url.startsWith("data:image/png;base64,")).toBe(true);
      const sent = Uint8Array.from(atob(url.slice("data:image/png;base64,".length)), (c) => c.charCodeAt(0));
      expect(sent).toEqual(file.bytes);

      const stored = await (await api(`/v1/conversations/${conv}`)).text();
      expect(stored).toContain(String(result.saved_to));
      expect(stored).not.toContain("data:image/png;base64");
      const events = await readSse(await api(`/v1/conversations/${conv}/events`), untilRunEnd);
      expect(events.some((e) => e.data.type === "TOOL_CALL_RESULT")).toBe(true);
      expect(JSON.stringify(events)).not.toContain("data:image/png;base64");
    },
    T,
  );

  it(
    "only describes the screenshot (and still saves it) when the model cannot view images",
    async () => {
      await setVision(false);
      const { requests, result } = await screenshotRun();
      expect(imageParts(requests[2])).toHaveLength(0);
      expect(result.image_path).toBeUndefined();
      expect(result.description).toMatch(/not shown images/);
      expect((await fileBytes(String(result.saved_to))).status).toBe(200);
    },
    T,
  );

  it(
    "guesses vision from the model name when model_vision is auto",
    async () => {
      await setVision("auto");
      const { requests } = await screenshotRun(); // script keys are not vision model names
      expect(imageParts(requests[2])).toHaveLength(0);
    },
    T,
  );
});
