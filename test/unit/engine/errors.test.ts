import { describe, expect, it } from "vitest";
import { z } from "zod";
import { BrowserError, CirrusError, NetError, SearchError } from "../../../durable-objects/engine/errors";
import { DataUrlError, parseDataUrl } from "../../../durable-objects/engine/files/data-url";
import { FilesError } from "../../../durable-objects/engine/files/files-error";
import { ModelError } from "../../../durable-objects/engine/model/openai-client";
import { assertFetchable } from "../../../durable-objects/engine/net/ssrf";
import {
  defineTool,
  RetryRequest,
  ToolError,
  ToolRegistry,
} from "../../../durable-objects/engine/tools/tool";
import { runTool } from "../../../durable-objects/engine/tools/tool-runner";
import { ApiError } from "../../../worker/errors";

const LIMITS = { timeoutMs: 1_000, maxResultChars: 10_000, retryBudget: 3 };
const CTX = { conversationId: "c", workspaceId: "w", runId: "r", toolCallId: "t" };

describe("the error classes", () => {
  it("share one base that names the subclass and keeps code and cause", () => {
    const cause = new Error("socket hang up");
    const errors = [
      new NetError("fetch_failed", "no", { cause }),
      new SearchError("search_failed", "no", { cause }),
      new BrowserError("no_tab", "no", { cause }),
      new FilesError("not_found", "no", { cause }),
      new ModelError("no", "model_error", 500, { cause }),
      new ToolError("not_found", "no", { cause }),
    ];
    expect(errors.map((e) => e.name)).toEqual([
      "NetError",
      "SearchError",
      "BrowserError",
      "FilesError",
      "ModelError",
      "ToolError",
    ]);
    for (const e of errors) {
      expect(e).toBeInstanceOf(CirrusError);
      expect(e.cause).toBe(cause);
      expect(e.message).toBe("no");
    }
    expect(new RetryRequest("again").code).toBe("retry_requested");
    expect(new ApiError(404, "not_found", "gone")).toMatchObject({
      name: "ApiError",
      code: "not_found",
      status: 404,
    });
  });

  it("are thrown by the libraries in their own kind, not the tool layer's", () => {
    expect(() => assertFetchable(new URL("http://127.0.0.1/"), { allowPrivateNetwork: false })).toThrow(
      NetError,
    );
    expect(() => assertFetchable(new URL("ftp://example.com/"), { allowPrivateNetwork: false })).toThrow(
      expect.objectContaining({ name: "NetError", code: "unsupported_url" }),
    );
    expect(() => parseDataUrl("data:;base64,@@")).toThrow(DataUrlError);
    const thrown = (() => {
      try {
        assertFetchable(new URL("http://10.0.0.1/"), { allowPrivateNetwork: false });
      } catch (err) {
        return err;
      }
    })();
    expect(thrown).toBeInstanceOf(NetError);
    expect(thrown).not.toBeInstanceOf(ToolError);
  });

  it("reach the model as a tool error with the library's code and message", async () => {
    const registry = new ToolRegistry();
    registry.add(
      defineTool({
        name: "fetch_it",
        description: "Fetch a URL.",
        parameters: z.object({ url: z.string() }),
        execute: ({ url }) => {
          assertFetchable(new URL(url), { allowPrivateNetwork: false });
          return "fetched";
        },
      }),
    );
    const out = await runTool(registry, "fetch_it", { url: "http://192.168.1.1/admin" }, CTX, LIMITS);
    expect(out.kind).toBe("result");
    const body = JSON.parse((out as { content: string }).content);
    expect(body.ok).toBe(false);
    expect(body.error.code).toBe("blocked_address");
    expect(body.error.message).toContain("Refused to fetch http://192.168.1.1/admin");
  });
});
