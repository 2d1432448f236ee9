import { beforeAll, describe, expect, it } from "vitest";
import { allEvents, customs, decide, idle, pendingApprovals, send } from "../conversation/approvals-helpers";
import { api, createConversation, script, uniqueKey } from "../helpers";
import { addServer, mcpUrls, toolResultsById } from "./mcp-helpers";

// The first request loads the MCP SDK into the test runner's workerd, which takes a while here.
beforeAll(async () => {
  await api("/v1/mcp/servers");
}, 60_000);

describe("an MCP server registered with an approval default", () => {
  it("has every one of its tools wait for a person before it runs", async () => {
    const server = await addServer({ name: "everything", url: mcpUrls().everything, approval: "ask" });
    expect(server).toMatchObject({ status: "connected", approval: "ask" });
    const key = uniqueKey("mcp-approval");
    await script(key, [
      { tool_calls: [{ id: "e", name: "everything__echo", arguments: { message: "held" } }] },
      { text: "echoed" },
    ]);
    const id = await createConversation(key);
    await send(id, "echo");
    const [pending] = await pendingApprovals(id);
    expect(pending).toMatchObject({
      tool_name: "everything__echo",
      arguments: { message: "held" },
      reason: 'everything__echo needs approval ("ask" in the tool\'s own default).',
    });
    expect((await decide(id, pending.approval_id, { decision: "approve" })).status).toBe(200);
    await idle(id);
    expect((await toolResultsById(key)).get("e")).toContain("Echo: held");
    expect(customs(await allEvents(id), "approval_resolved")).toHaveLength(1);

    const patched = await api(`/v1/mcp/servers/${server.id}`, { method: "PATCH", json: { approval: null } });
    expect(await patched.json()).toMatchObject({ approval: "allow" });
    const bad = await api(`/v1/mcp/servers/${server.id}`, { method: "PATCH", json: { approval: "later" } });
    expect(bad.status).toBe(400);
  });
});
