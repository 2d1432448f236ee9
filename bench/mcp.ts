/**
 * MCP benchmark (issue 13): the latency an MCP tool call adds over a direct HTTP tool doing the
 * same work on the same machine. Both tools answer an order lookup from a local server; each
 * sample is the time from the call's TOOL_CALL_END to its TOOL_CALL_RESULT in the event log
 * (1 ms resolution in workerd), inside real runs of the agent loop.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { MCP_TEST_TOKEN, startBearer } from "../test/support/mcp-servers.ts";
import { isRunEnd, readSse } from "../test/support/sse.ts";
import { type BenchStack, ms, percentile, startBenchStack } from "./start-worker.ts";

const CALLS = 80;
const WARMUP = 5;

interface Ev {
  type: string;
  timestamp?: number;
  toolCallId?: string;
  toolCallName?: string;
}

/** A local HTTP tool endpoint answering like the MCP server's `lookup`. */
async function startHttpTool(): Promise<{ url: string; close(): void }> {
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (c) => {
      body += c;
    });
    req.on("end", () => {
      const { id } = JSON.parse(body || "{}") as { id?: string };
      res.writeHead(200, { "content-type": "application/json" });
      res.end(
        JSON.stringify({ text: `order ${id} is shipped`, structured_content: { id, status: "shipped" } }),
      );
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/lookup`,
    close: () => server.close(),
  };
}

/**
 * One run whose turns alternate between the two tools (so load on the machine hits both alike);
 * each call's duration in ms, by tool name, after a warm-up.
 */
async function sample(stack: BenchStack, tools: string[]): Promise<Map<string, number[]>> {
  const key = `mcp-bench-${tools.join("-")}`;
  await stack.script(key, [
    ...Array.from({ length: CALLS * tools.length }, (_, i) => ({
      tool_calls: [{ id: `c${i}`, name: tools[i % tools.length], arguments: { id: `o${i}` } }],
    })),
    { text: "done" },
  ]);
  const conv = (await (
    await stack.request("/v1/conversations", { method: "POST", json: { model: key, max_steps: 500 } })
  ).json()) as { id: string };
  const res = await stack.request(`/v1/conversations/${conv.id}/messages`, {
    method: "POST",
    json: { content: "go", stream: false },
  });
  const out = (await res.json()) as { status: string };
  if (out.status !== "succeeded") throw new Error(`run ${out.status}`);
  const events = await readUntilEnd(await stack.request(`/v1/conversations/${conv.id}/events?after=0`));
  const names = new Map<string, string>();
  const ends = new Map<string, number>();
  const durations = new Map<string, number[]>(tools.map((t) => [t, []]));
  for (const e of events) {
    if (e.type === "TOOL_CALL_START" && e.toolCallId) names.set(e.toolCallId, e.toolCallName!);
    if (e.type === "TOOL_CALL_END" && e.toolCallId) ends.set(e.toolCallId, e.timestamp!);
    if (e.type === "TOOL_CALL_RESULT" && e.toolCallId && ends.has(e.toolCallId)) {
      durations.get(names.get(e.toolCallId)!)!.push(e.timestamp! - ends.get(e.toolCallId)!);
    }
  }
  for (const [t, d] of durations) durations.set(t, d.slice(WARMUP));
  return durations;
}

/** Reads a conversation's event stream up to its first RUN_FINISHED. */
async function readUntilEnd(res: Response): Promise<Ev[]> {
  return (await readSse<Ev>(res, isRunEnd)).map((m) => m.data);
}

const stack = await startBenchStack();
const mcp = await startBearer();
const http = await startHttpTool();
// Local state persists between bench runs: a fresh server name each time.
const server = `bench${Date.now().toString(36)}`;
try {
  const added = await stack.request("/v1/mcp/servers", {
    method: "POST",
    json: { name: server, url: `${mcp.origin}/mcp`, headers: { Authorization: `Bearer ${MCP_TEST_TOKEN}` } },
  });
  if (added.status !== 201) throw new Error(await added.text());
  const tool = await stack.request("/v1/tools", {
    method: "POST",
    json: {
      name: "lookup_http",
      description: "Looks up an order by id.",
      parameters: { type: "object", properties: { id: { type: "string" } }, required: ["id"] },
      url: http.url,
    },
  });
  if (tool.status !== 201) throw new Error(await tool.text());
  const samples = await sample(stack, ["lookup_http", `${server}__lookup`]);
  const viaHttp = samples.get("lookup_http")!;
  const viaMcp = samples.get(`${server}__lookup`)!;
  console.log("\n== MCP (workerd, our MCP test server and an HTTP tool on 127.0.0.1) ==");
  for (const p of [50, 95]) {
    const m = percentile(viaMcp, p);
    const h = percentile(viaHttp, p);
    console.log(
      `tool call p${p}: MCP ${ms(m)}  HTTP tool ${ms(h)}  added by MCP ${ms(m - h)}  (n=${viaMcp.length}/${viaHttp.length})`,
    );
  }
} finally {
  http.close();
  mcp.server.closeAllConnections();
  mcp.server.close();
  await stack.stop();
}
