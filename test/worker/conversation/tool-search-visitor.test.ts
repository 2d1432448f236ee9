import { describe, expect, inject, it } from "vitest";
import { api, modelRequests, script, uniqueKey } from "../helpers";
import { offered, results, visitorSays, visitorSession, workspaceWithKeys } from "./visitor-helpers";

const pageUrl = () => inject("pageUrl");

describe("a widget visitor whose allowed tools are more than a request may list", () => {
  it("is offered find_tools and call_tool, which reach only the tools the owner allowed", async () => {
    const w = await workspaceWithKeys("visitor-search");
    const key = uniqueKey("visitor-search");
    await api("/v1/settings", {
      method: "PUT",
      token: w.sk,
      json: { agent: { model: key }, widget: { tools: ["crm_*", "finish"] } },
    });
    const register = async (name: string, description: string, url: string) => {
      const res = await api("/v1/tools", {
        method: "POST",
        token: w.sk,
        json: { name, description, parameters: { type: "object", properties: {} }, url },
      });
      expect(res.status).toBe(201);
      return ((await res.json()) as { secret: string }).secret;
    };
    for (let n = 0; n < 130; n++)
      await register(`crm_stock_${n}`, `Stock of shelf ${n}.`, `${pageUrl()}/receiver/unused`);
    const receiver = uniqueKey("visitor-hours");
    const secret = await register(
      "crm_opening_hours",
      "The shop's opening hours.",
      `${pageUrl()}/receiver/${receiver}`,
    );
    await fetch(`${pageUrl()}/receiver/${receiver}/config`, {
      method: "POST",
      body: JSON.stringify({ secret, body: { hours: "9-17" } }),
    });
    await register("admin_refund", "Refunds an order.", `${pageUrl()}/receiver/unused`);
    await script(key, [
      { tool_calls: [{ id: "f", name: "find_tools", arguments: { query: "opening hours refund" } }] },
      {
        tool_calls: [
          { id: "c", name: "call_tool", arguments: { name: "crm_opening_hours", arguments: {} } },
          { id: "r", name: "call_tool", arguments: { name: "admin_refund", arguments: {} } },
        ],
      },
      { text: "9 to 5" },
    ]);
    const visitor = await visitorSession(w.pk, w.sk);
    expect(await visitorSays(w.pk, visitor, "when are you open?")).toBe("succeeded");
    // crm_client is a deployed tool: deployed tools are always listed.
    expect(await offered(key)).toEqual(["call_tool", "crm_client", "find_tools", "finish"]);
    const seen = await results(key);
    const found = (await modelRequests(key))[1].messages.find(
      (m) => (m as { tool_call_id?: string }).tool_call_id === "f",
    );
    const names = (JSON.parse(String(found?.content)) as { tools: { name: string }[] }).tools.map(
      (t) => t.name,
    );
    expect(names).toContain("crm_opening_hours");
    expect(names).not.toContain("admin_refund");
    expect(seen.c).toEqual({ hours: "9-17" });
    expect(seen.r.error?.code).toBe("invalid_arguments");
  });
});
