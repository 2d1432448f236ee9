/**
 * Scripted OpenAI-compatible Chat Completions server: the only stand-in for the LLM in tests.
 *
 *   POST /v1/chat/completions        `model` is the script key; each request consumes that key's next turn
 *   GET  /v1/models                  known keys (echo, bench, and every scripted key)
 *   PUT  /__scripts/:key             { turns: Turn[], repeat?: boolean, cache?: "openai"|"deepseek"|"anthropic" }
 *                                    replace the script (log is kept); with `cache`, every answer reports as
 *                                    cached the share of its request that is a byte-identical prefix of the
 *                                    request before it (an exact-prefix cache), in that provider's usage shape
 *   POST /__scripts/:key/append      { turns: Turn[] }
 *   GET  /__scripts/:key/requests    { requests: [...request bodies in arrival order] }
 *   POST /__scripts/:key/release     release every request held by a `hang` turn -> { released: n }
 *   GET  /__scripts/:key/held        how many requests a `hang` turn holds now -> { held: n }
 *   DELETE /__scripts/:key           remove the script and its request log
 *
 * A `json` turn answers a structured-output call (the grader's): the request must carry
 * `response_format` of type `json_schema` (else 400), and the turn's value comes back as JSON text.
 *
 * Built-in keys (used only while no script is registered under them): `echo` answers
 * "echo: <last user message>", and any key starting with `bench` answers "ok" instantly.
 * Keys containing "/" must be URL-encoded in /__scripts paths.
 *
 * Parts: scripted-model-scripts.ts (scripts, request logs, held requests, the /__scripts routes),
 * scripted-model-answer.ts (one turn's reply: error, drop, JSON or SSE stream),
 * scripted-model-turns.ts / -usage.ts / -wire.ts (turn types, token counts, wire shapes) and
 * scripted-model-http.ts (JSON bodies and replies).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { keepIdleConnections } from "./keep-alive.ts";
import { answer } from "./scripted-model-answer.ts";
import { BadJson, readJson, sendJson, sleep } from "./scripted-model-http.ts";
import { control, ScriptStore } from "./scripted-model-scripts.ts";
import { isRecord, type JsonObject } from "./scripted-model-turns.ts";
import { errorBody } from "./scripted-model-wire.ts";

export type { CacheShape } from "./scripted-model-usage.ts";
export type {
  DropTurn,
  ErrorTurn,
  JsonTurn,
  MalformedToolCallTurn,
  StreamErrorTurn,
  TextTurn,
  TokenUsage,
  ToolCallSpec,
  ToolCallsTurn,
  Turn,
  TurnOptions,
} from "./scripted-model-turns.ts";

export interface ScriptedModel {
  /** Base URL without the /v1 suffix, e.g. http://127.0.0.1:PORT */
  url: string;
  close(): Promise<void>;
}
export interface ScriptedModelOptions {
  port?: number;
  host?: string;
}

/** What every request handler shares: the scripts, and the signal that aborts on close(). */
interface ServerState {
  store: ScriptStore;
  shutdown: AbortSignal;
}

/** POST /v1/chat/completions: logs the request, takes the key's next turn, waits as it says, answers. */
async function chat(state: ServerState, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const { store } = state;
  const body = await readJson(req);
  if (!isRecord(body) || typeof body.model !== "string")
    return sendJson(res, 400, errorBody("you must provide a model parameter", 400));
  const key = body.model;
  const log = store.record(key, body);
  const turn = store.nextTurn(key, body);
  if (!turn) return sendJson(res, 400, errorBody(`no scripted turn left for model ${key}`, 400));
  const format = body.response_format;
  if ("json" in turn && !(isRecord(format) && format.type === "json_schema"))
    return sendJson(res, 400, errorBody(`a json turn of ${key} needs response_format json_schema`, 400));

  const gone = new AbortController();
  res.on("close", () => gone.abort());
  const signal = AbortSignal.any([gone.signal, state.shutdown]);
  if (turn.hang && !(await store.hold(key, signal))) return;
  if (turn.delay_ms && !(await sleep(turn.delay_ms, signal))) return;
  if (signal.aborted) return;
  await answer(turn, body, res, signal, store.cacheOf(key), log.at(-2));
}

/** GET /v1/models: the built-in keys and every scripted key. */
function listModels(store: ScriptStore, res: ServerResponse): void {
  const ids = new Set(["echo", "bench", ...store.keys()]);
  const data: JsonObject[] = [...ids].map((id) => ({
    id,
    object: "model",
    created: 0,
    owned_by: "cirrus-scripted",
  }));
  sendJson(res, 200, { object: "list", data });
}

async function route(state: ServerState, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const path = new URL(req.url ?? "/", "http://localhost").pathname;
  if (req.method === "POST" && path === "/v1/chat/completions") return chat(state, req, res);
  if (req.method === "GET" && path === "/v1/models") return listModels(state.store, res);
  const m = /^\/__scripts\/([^/]+)(?:\/(append|requests|release|held))?$/.exec(path);
  if (m?.[1]) return control(state.store, req, res, decodeURIComponent(m[1]), m[2] ?? "");
  sendJson(res, 404, errorBody(`Unknown request URL: ${req.method ?? ""} ${path}`, 404));
}

/** The HTTP server: routes every request, turning a thrown error into a 400 (bad JSON) or 500 reply. */
function createModelServer(state: ServerState, sockets: Set<Socket>): Server {
  const server = createServer((req, res) => {
    route(state, req, res).catch((err: unknown) => {
      if (res.headersSent) res.destroy();
      else if (err instanceof BadJson) sendJson(res, 400, errorBody(err.message, 400));
      else sendJson(res, 500, errorBody(err instanceof Error ? err.message : String(err), 500));
    });
  });
  keepIdleConnections(server);
  server.on("connection", (socket: Socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  return server;
}

function listen(server: Server, opts: ScriptedModelOptions): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(opts.port ?? 0, opts.host ?? "127.0.0.1", () => {
      server.off("error", reject);
      resolve();
    });
  });
}

export async function startScriptedModel(opts: ScriptedModelOptions = {}): Promise<ScriptedModel> {
  const sockets = new Set<Socket>();
  const shutdown = new AbortController();
  const server = createModelServer({ store: new ScriptStore(), shutdown: shutdown.signal }, sockets);
  await listen(server, opts);
  const addr = server.address() as AddressInfo;
  const host = addr.family === "IPv6" ? `[${addr.address}]` : addr.address;

  return {
    url: `http://${host}:${addr.port}`,
    close: () =>
      new Promise<void>((resolve) => {
        shutdown.abort();
        server.close(() => resolve());
        server.closeAllConnections();
        for (const socket of sockets) socket.destroy();
      }),
  };
}
