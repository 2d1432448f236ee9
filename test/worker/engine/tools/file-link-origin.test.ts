import { env, exports } from "cloudflare:workers";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { base64, callTool } from "../../files-helpers";
import { ADMIN } from "../../helpers";

const vars = env as unknown as Record<string, unknown>;
const CONFIGURED = vars.PUBLIC_BASE_URL;

/** Creates a conversation through the given origin, as a client reaching Cirrus there would. */
async function conversationVia(origin: string): Promise<string> {
  const res = await exports.default.fetch(
    new Request(`${origin}/v1/conversations`, {
      method: "POST",
      headers: { authorization: `Bearer ${ADMIN}`, "content-type": "application/json" },
      body: JSON.stringify({ model: "echo" }),
    }),
  );
  expect(res.status).toBe(201);
  return ((await res.json()) as { id: string }).id;
}

const PNG = `data:image/png;base64,${base64(Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 1, 2]))}`;

describe("opfs_read's links in blob mode", () => {
  afterEach(() => {
    vars.PUBLIC_BASE_URL = CONFIGURED;
  });

  describe("without PUBLIC_BASE_URL", () => {
    beforeEach(() => {
      vars.PUBLIC_BASE_URL = "";
    });

    it("are absolute, on the origin the conversation was created through", async () => {
      const conv = await conversationVia("https://agents.example.net:8443");
      expect((await callTool(conv, "opfs_write", { path: "o/a.png", content: PNG })).status).toBe(200);
      const read = await callTool(conv, "opfs_read", { path: "o/a.png" });
      expect(read.status).toBe(200);
      expect(read.result.mode).toBe("blob");
      expect(read.result.url).toMatch(/^https:\/\/agents\.example\.net:8443\/files\/[\w-]+\.[\w-]+$/);
      const res = await exports.default.fetch(read.result.url);
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toBe("image/png");
    });
  });

  it("start with PUBLIC_BASE_URL when it is set, whatever origin the conversation came through", async () => {
    const conv = await conversationVia("https://agents.example.net:8443");
    await callTool(conv, "opfs_write", { path: "o/b.png", content: PNG });
    const read = await callTool(conv, "opfs_read", { path: "o/b.png", mode: "blob" });
    expect(read.result.url).toMatch(/^https:\/\/cirrus\.test\/files\//);
  });
});
