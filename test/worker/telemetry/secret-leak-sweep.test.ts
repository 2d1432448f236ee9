/**
 * Secrets never reach what a user or the model can see. A workspace holds a password and a TOTP
 * seed (typed in the browser by name), two HTTP tools with credential headers and an MCP server
 * with a bearer token and a key header, all pointed at endpoints that echo the request's headers
 * back (one as an error, one large enough to be saved to the workspace). A scripted run uses each
 * of them; then every surface (leak-surfaces.ts) is searched for every value. Runs in the
 * telemetry projects, so the spans (with content captured, in telemetry-json) are searched too.
 */
import { runInDurableObject } from "cloudflare:test";
import { describe, expect, inject, it, vi } from "vitest";
import {
  api,
  conversationObject,
  createConversation,
  eventually,
  newWorkspaceKey,
  readSse,
  script,
  uniqueKey,
  untilRunEnd,
} from "../helpers";
import { leaks, surfacesOf } from "./leak-surfaces";

const random = () => crypto.randomUUID().replaceAll("-", "").slice(0, 16);
const BASE32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
const MCP_TEST_TOKEN = "mcp-test-token-7f3a9c";

/** The distinctive values planted, by what they are. */
const planted = () => ({
  password: `pw-${random()}`,
  "totp seed": Array.from(crypto.getRandomValues(new Uint8Array(32)), (b) => BASE32[b % 32]).join(""),
  "HTTP tool bearer token": `tok-${random()}`,
  "HTTP tool key header": `key-${random()}`,
  "MCP bearer token": MCP_TEST_TOKEN,
  "MCP key header": `vault-${random()}`,
});
type Planted = ReturnType<typeof planted>;

/** Secrets, HTTP tools and an MCP server holding the values; a webhook on the run's end. */
async function plant(token: string, v: Planted, receiver: string): Promise<void> {
  const page = inject("pageUrl");
  const put = (path: string, json: unknown, method = "POST") => api(path, { method, json, token });
  await put("/v1/secrets/site_password", { value: v.password }, "PUT");
  await put("/v1/secrets/site_totp", { value: v["totp seed"], kind: "totp" }, "PUT");
  const headers = {
    authorization: `Bearer ${v["HTTP tool bearer token"]}`,
    "x-api-key": v["HTTP tool key header"],
  };
  for (const [name, query] of [
    ["echo_headers", ""],
    ["echo_fail", "?status=500"],
    ["echo_big", "?pad=60000"],
  ])
    expect(
      (await put("/v1/tools", { name, description: "Echo.", url: `${page}/echo/headers${query}`, headers }))
        .status,
    ).toBe(201);
  const mcp = await put("/v1/mcp/servers", {
    name: "vault",
    url: inject("mcpUrls").bearer,
    headers: { authorization: `Bearer ${MCP_TEST_TOKEN}`, "x-vault-key": v["MCP key header"] },
  });
  expect(mcp.status).toBe(201);
  const hook = await put("/v1/webhooks", {
    url: `${page}/receiver/${receiver}`,
    events: ["run.succeeded", "run.failed"],
  });
  const { secret } = (await hook.json()) as { secret: string };
  await fetch(`${page}/receiver/${receiver}/config`, {
    method: "POST",
    body: JSON.stringify({ secret, scheme: "standard" }),
  });
}

const call = (id: string, name: string, args: Record<string, unknown> = {}) => ({
  id,
  name,
  arguments: args,
});

/** The model's turns: every echoing tool, then the browser typing both secrets and reading the result. */
async function scriptRun(model: string): Promise<void> {
  const form = `${inject("pageUrl")}/browser/form`;
  await script(model, [
    {
      tool_calls: [
        call("h1", "echo_headers"),
        call("h2", "echo_fail"),
        call("h3", "echo_big"),
        call("m1", "vault__whoami"),
      ],
    },
    { tool_calls: [call("b1", "open_tab", { url: form })] },
    {
      tool_calls: [
        call("b2", "type_secret", { selector: 'input[name="pass"]', secret: "site_password" }),
        call("b3", "type_secret", { selector: 'textarea[name="note"]', secret: "site_totp" }),
      ],
    },
    { tool_calls: [call("b4", "click", { selector: "#login > button" })] },
    { tool_calls: [call("b5", "get_tab_content", { tab_id: 1 })] },
    { text: "Done." },
  ]);
}

describe("the secret-leak sweep", () => {
  it("finds no secret value on any surface after a run used each of them", { timeout: 120_000 }, async () => {
    const logged: unknown[][] = [];
    const spies = (["log", "info", "warn", "error", "debug"] as const).map((level) =>
      vi.spyOn(console, level).mockImplementation((...args: unknown[]) => void logged.push(args)),
    );
    try {
      const { id: workspace, key } = await newWorkspaceKey("leaks");
      const values = planted();
      const receiver = uniqueKey("leak-hook");
      await plant(key, values, receiver);
      const model = uniqueKey("leaks");
      await scriptRun(model);
      const conv = await createConversation(model, { recording: true }, key);
      const res = await api(`/v1/conversations/${conv}/messages`, {
        method: "POST",
        json: { content: "Go." },
        token: key,
      });
      const stream = await readSse(res, untilRunEnd, 90_000);
      expect(stream.at(-1)?.data.type).toBe("RUN_FINISHED");
      const results = stream
        .filter((e) => e.data.type === "TOOL_CALL_RESULT")
        .map((e) => String(e.data.content));
      // Each path ran: the echoes answered, both secrets were typed and the page showed them redacted.
      const echoed = results.slice(0, 4).join("\n");
      for (const header of ["authorization", "x-api-key", "x-vault-key"])
        expect(echoed).toContain(`<secret:header:${header}>`);
      expect(results.at(-1)).toContain("Password was: <secret:site_password>");
      expect(results.at(-1)).toContain("Note: <secret:site_totp>");
      await eventually(async () =>
        (await (await fetch(`${inject("pageUrl")}/receiver/${receiver}/log`)).text()).includes(
          "run.succeeded",
        ),
      );
      // The objects log in this isolate: what they write reaches the spies (checked with a probe).
      await runInDurableObject(conversationObject(conv, workspace), () => console.warn("probe"));
      expect(logged.flat()).toContain("probe");
      const surfaces = await surfacesOf({ conv, token: key, model, stream, receiver, console: logged });
      const names = surfaces.map((x) => x.name);
      // The surfaces that hold content were there to search: a saved result, a recording, spans.
      expect(names.some((n) => n.startsWith("file .cirrus/results/"))).toBe(true);
      expect(names.some((n) => n.startsWith("recording rec_"))).toBe(true);
      expect(surfaces.find((x) => x.name === "spans")?.text).toContain(conv);
      expect(leaks(surfaces, values)).toEqual([]);
    } finally {
      for (const spy of spies) spy.mockRestore();
    }
  });
});
