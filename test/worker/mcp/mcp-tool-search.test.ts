import { beforeAll, describe, expect, it } from "vitest";
import { api, createConversation, newWorkspaceKey, script, uniqueKey } from "../helpers";
import { addServer, mcpUrls, offeredTools, toolResultsById } from "./mcp-helpers";

// The first request loads the MCP SDK into the test runner's workerd, which takes a while here.
beforeAll(async () => {
  await api("/v1/mcp/servers");
}, 60_000);

describe("an MCP server's tools past a tenth of the context window", () => {
  it("are found with find_tools and run over MCP through call_tool", async () => {
    const { key: token } = await newWorkspaceKey("mcp-search");
    await addServer({ name: "ev", url: mcpUrls().everything }, token);
    const key = uniqueKey("mcp-search");
    await script(key, [
      { tool_calls: [{ id: "f", name: "find_tools", arguments: { query: "echo back the input" } }] },
      {
        tool_calls: [
          { id: "c", name: "call_tool", arguments: { name: "ev__echo", arguments: { message: "hi" } } },
        ],
      },
      { text: "echoed" },
    ]);
    // A small window: the server's tool definitions take more than its tenth.
    const id = await createConversation(key, { mcp_servers: ["ev"], context_window: 5_000 }, token);
    const res = await api(`/v1/conversations/${id}/messages`, {
      method: "POST",
      json: { content: "echo hi", stream: false },
      token,
    });
    expect(await res.json()).toMatchObject({ status: "succeeded", output: "echoed" });
    const offered = await offeredTools(key);
    expect(offered).toEqual(expect.arrayContaining(["find_tools", "call_tool"]));
    expect(offered.filter((n) => n.startsWith("ev__"))).toEqual([]);
    const results = await toolResultsById(key);
    const found = JSON.parse(results.get("f")!) as { tools: { name: string }[] };
    expect(found.tools[0].name).toBe("ev__echo");
    expect(results.get("c")).toContain("Echo: hi");
  });
});
