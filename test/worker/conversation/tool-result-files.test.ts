import { describe, expect, it } from "vitest";
import { BROWSER_TEST_TIMEOUT_MS, page } from "../engine/browser/browser-helpers";
import { api, createConversation, readSse, script, uniqueKey, untilRunEnd } from "../helpers";

type Result = { type: string; toolCallId: string; content: string; files?: { path: string }[] };

describe("the files a tool call wrote, on its TOOL_CALL_RESULT", () => {
  it(
    "are listed for opfs_write and screenshot, and for no other tool",
    async () => {
      const key = uniqueKey("result-files");
      await script(key, [
        {
          tool_calls: [
            { id: "w", name: "opfs_write", arguments: { path: "/out/offer.md", content: "# Offer\n" } },
            { id: "bad", name: "opfs_write", arguments: { path: "../x.md", content: "no" } },
            { id: "t", name: "create_task", arguments: { subject: "Save and export" } },
          ],
        },
        {
          tool_calls: [
            { id: "r", name: "opfs_read", arguments: { path: "out/offer.md" } },
            { id: "o", name: "open_tab", arguments: { url: page("/hello") } },
          ],
        },
        { tool_calls: [{ id: "s", name: "screenshot", arguments: {} }] },
        { text: "done" },
      ]);
      const conv = await createConversation(key);
      const res = await api(`/v1/conversations/${conv}/messages`, {
        method: "POST",
        json: { content: "go" },
      });
      const events = await readSse(res, untilRunEnd, 60_000);
      expect(events.at(-1)?.data.type).toBe("RUN_FINISHED");
      const results = new Map(
        events
          .filter((e) => e.data.type === "TOOL_CALL_RESULT")
          .map((e) => [(e.data as unknown as Result).toolCallId, e.data as unknown as Result]),
      );
      expect([...results.keys()].sort()).toEqual(["bad", "o", "r", "s", "t", "w"]);

      expect(results.get("w")?.files).toEqual([{ path: "out/offer.md" }]);
      const shot = JSON.parse(results.get("s")!.content) as { saved_to: string };
      expect(shot.saved_to).toMatch(/^screenshots\/conv_[\w-]+\/tab-1-\d+\.png$/);
      expect(results.get("s")?.files).toEqual([{ path: shot.saved_to }]);
      for (const id of ["bad", "t", "r", "o"]) expect(results.get(id), id).not.toHaveProperty("files");

      // The same rule decides what the conversation's file route serves.
      const file = (path: string) => api(`/v1/conversations/${conv}/files/${path}`);
      const written = await file("out/offer.md");
      expect(written.status).toBe(200);
      expect(await written.text()).toBe("# Offer\n");
      const png = await file(shot.saved_to);
      expect(png.status).toBe(200);
      expect(png.headers.get("content-type")).toBe("image/png");
      const notWritten = await file("x.md");
      expect(notWritten.status).toBe(404);
      expect(((await notWritten.json()) as { error: { code: string } }).error.code).toBe("not_found");
    },
    BROWSER_TEST_TIMEOUT_MS,
  );
});
