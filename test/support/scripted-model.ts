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
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { keepIdleConnections } from "./keep-alive.ts";
import {
  type CacheShape,
  CACHE_SHAPES,
  cachedPromptTokens,
  completionBody,
  envelope,
  errorBody,
  isRecord,
  type Json,
  type JsonObject,
  lastUserText,
  outputOf,
  randomId,
  streamChunks,
  type Turn,
  turnProblem,
  usageFor,
  withCachedTokens,
} from "./scripted-model-wire.ts";

export type {
  CacheShape,
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
} from "./scripted-model-wire.ts";

export interface ScriptedModel {
  /** Base URL without the /v1 suffix, e.g. http://127.0.0.1:PORT */
  url: string;
  close(): Promise<void>;
}
export interface ScriptedModelOptions {
  port?: number;
  host?: string;
}

interface Script {
  turns: Turn[];
  cursor: number;
  repeat: boolean;
  cache?: CacheShape;
}

class BadJson extends Error {}

function readJson(req: IncomingMessage): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    req.on("data", (b: Buffer) => parts.push(b));
    req.on("error", reject);
    req.on("end", () => {
      const text = Buffer.concat(parts).toString("utf8");
      try {
        resolve(text.trim() === "" ? undefined : (JSON.parse(text) as unknown));
      } catch {
        reject(new BadJson("We could not parse the JSON body of your request."));
      }
    });
  });
}

function sendJson(
  res: ServerResponse,
  status: number,
  body: Json,
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    "content-type": "application/json",
    "content-length": String(Buffer.byteLength(text)),
    "x-request-id": randomId("req_", 16),
    ...headers,
  });
  res.end(text);
}

const write = (res: ServerResponse, data: string): Promise<void> =>
  new Promise((resolve) => {
    res.write(data, () => resolve());
  });

/** Resolves true after `ms`, or false as soon as `signal` aborts. */
function sleep(ms: number, signal: AbortSignal): Promise<boolean> {
  if (signal.aborted) return Promise.resolve(false);
  if (ms <= 0) return Promise.resolve(true);
  return new Promise((resolve) => {
    const onAbort = (): void => {
      clearTimeout(timer);
      resolve(false);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve(true);
    }, ms);
    signal.addEventListener("abort", onAbort, { once: true });
  });
}

export async function startScriptedModel(opts: ScriptedModelOptions = {}): Promise<ScriptedModel> {
  const scripts = new Map<string, Script>();
  const logs = new Map<string, unknown[]>();
  const held = new Map<string, Set<() => void>>();
  const sockets = new Set<Socket>();
  const shutdown = new AbortController();

  const nextTurn = (key: string, body: Record<string, unknown>): Turn | undefined => {
    const s = scripts.get(key);
    if (s) {
      if (s.repeat && s.turns.length > 0) return s.turns[s.cursor++ % s.turns.length];
      return s.cursor < s.turns.length ? s.turns[s.cursor++] : undefined;
    }
    if (key === "echo") return { text: `echo: ${lastUserText(body.messages)}` };
    if (key.startsWith("bench")) return { text: "ok" };
    return undefined;
  };

  /** Hold until released (true) or until the client/server goes away (false). */
  const hold = (key: string, signal: AbortSignal): Promise<boolean> =>
    new Promise((resolve) => {
      const set = held.get(key) ?? new Set<() => void>();
      held.set(key, set);
      const done = (released: boolean): void => {
        set.delete(onRelease);
        signal.removeEventListener("abort", onAbort);
        resolve(released);
      };
      const onRelease = (): void => done(true);
      const onAbort = (): void => done(false);
      set.add(onRelease);
      if (signal.aborted) onAbort();
      else signal.addEventListener("abort", onAbort, { once: true });
    });

  async function answer(
    turn: Turn,
    body: Record<string, unknown>,
    res: ServerResponse,
    signal: AbortSignal,
    previous?: unknown,
  ): Promise<void> {
    if ("drop" in turn) {
      res.socket?.destroy();
      return;
    }
    if ("error" in turn) {
      const { status, retry_after, message } = turn.error;
      const headers: Record<string, string> =
        retry_after === undefined ? {} : { "retry-after": String(retry_after) };
      sendJson(res, status, errorBody(message ?? `scripted error ${status}`, status), headers);
      return;
    }
    const model = String(body.model);
    const stream = body.stream === true;
    const includeUsage =
      stream && isRecord(body.stream_options) && body.stream_options.include_usage === true;
    const out = outputOf(turn);
    const env = envelope(model, includeUsage);
    const cache = scripts.get(model)?.cache;
    const counted = usageFor(out, body.messages, turn.usage);
    const usage = cache
      ? withCachedTokens(counted, cachedPromptTokens(previous, body, counted.prompt_tokens), cache)
      : counted;
    const breakAfter = "stream_error_after_chunks" in turn ? turn.stream_error_after_chunks : undefined;

    if (!stream || turn.json_response) {
      if (breakAfter === undefined) return sendJson(res, 200, completionBody(env, out, usage));
      const text = JSON.stringify(completionBody(env, out, usage));
      res.writeHead(200, {
        "content-type": "application/json",
        "content-length": String(Buffer.byteLength(text)),
      });
      await write(res, text.slice(0, Math.floor(text.length / 2)));
      res.destroy();
      return;
    }
    res.writeHead(200, {
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-cache",
      "x-request-id": randomId("req_", 16),
    });
    const chunks = streamChunks(env, out, usage);
    // chunk 0 is the role preamble, so N content chunks means 1 + N SSE events.
    const limit =
      breakAfter === undefined ? chunks.length : Math.min(chunks.length, 1 + Math.floor(breakAfter));
    for (let i = 0; i < limit; i++) {
      if (signal.aborted) return;
      await write(res, `data: ${JSON.stringify(chunks[i])}\n\n`);
      if (turn.chunk_delay_ms && i < limit - 1 && !(await sleep(turn.chunk_delay_ms, signal))) return;
    }
    if (breakAfter !== undefined) {
      res.destroy();
      return;
    }
    res.end("data: [DONE]\n\n");
  }

  async function chat(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const body = await readJson(req);
    if (!isRecord(body) || typeof body.model !== "string")
      return sendJson(res, 400, errorBody("you must provide a model parameter", 400));
    const key = body.model;
    const log = logs.get(key) ?? [];
    logs.set(key, log);
    log.push(body);
    const turn = nextTurn(key, body);
    if (!turn) return sendJson(res, 400, errorBody(`no scripted turn left for model ${key}`, 400));
    const format = body.response_format;
    if ("json" in turn && !(isRecord(format) && format.type === "json_schema"))
      return sendJson(res, 400, errorBody(`a json turn of ${key} needs response_format json_schema`, 400));

    const gone = new AbortController();
    res.on("close", () => gone.abort());
    const signal = AbortSignal.any([gone.signal, shutdown.signal]);
    if (turn.hang && !(await hold(key, signal))) return;
    if (turn.delay_ms && !(await sleep(turn.delay_ms, signal))) return;
    if (signal.aborted) return;
    await answer(turn, body, res, signal, log.at(-2));
  }

  async function control(
    req: IncomingMessage,
    res: ServerResponse,
    key: string,
    action: string,
  ): Promise<void> {
    const route = `${req.method ?? ""} ${action}`;
    if (route === "GET requests") return sendJson(res, 200, { requests: (logs.get(key) ?? []) as Json[] });
    if (route === "GET held") return sendJson(res, 200, { held: held.get(key)?.size ?? 0 });
    if (route === "POST release") {
      const set = held.get(key);
      const waiters = set ? [...set] : [];
      for (const release of waiters) release();
      return sendJson(res, 200, { released: waiters.length });
    }
    if (route === "DELETE ") {
      const existed = scripts.delete(key);
      logs.delete(key);
      return sendJson(res, 200, { deleted: existed });
    }
    if (route !== "PUT " && route !== "POST append")
      return sendJson(res, 404, errorBody(`unknown route ${route}`, 404));
    const body = await readJson(req);
    if (!isRecord(body) || !Array.isArray(body.turns))
      return sendJson(res, 400, errorBody("body must be { turns: Turn[] }", 400));
    const turnsIn: unknown[] = body.turns;
    for (const [i, t] of turnsIn.entries()) {
      const problem = turnProblem(t);
      if (problem) return sendJson(res, 400, errorBody(`turn ${i}: ${problem}`, 400));
    }
    const turns = turnsIn as Turn[]; // validated by turnProblem above
    const cache = body.cache;
    if (cache !== undefined && !CACHE_SHAPES.includes(cache as CacheShape))
      return sendJson(res, 400, errorBody(`cache must be one of ${CACHE_SHAPES.join(", ")}`, 400));
    const existing = scripts.get(key);
    if (route === "PUT " || !existing)
      scripts.set(key, {
        turns,
        cursor: 0,
        repeat: body.repeat === true,
        ...(cache ? { cache: cache as CacheShape } : {}),
      });
    else existing.turns.push(...turns);
    sendJson(res, 200, { key, turns: scripts.get(key)?.turns.length ?? 0 });
  }

  async function route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = new URL(req.url ?? "/", "http://localhost").pathname;
    if (req.method === "POST" && path === "/v1/chat/completions") return chat(req, res);
    if (req.method === "GET" && path === "/v1/models") {
      const ids = new Set(["echo", "bench", ...scripts.keys()]);
      const data: JsonObject[] = [...ids].map((id) => ({
        id,
        object: "model",
        created: 0,
        owned_by: "cirrus-scripted",
      }));
      return sendJson(res, 200, { object: "list", data });
    }
    const m = /^\/__scripts\/([^/]+)(?:\/(append|requests|release|held))?$/.exec(path);
    if (m?.[1]) return control(req, res, decodeURIComponent(m[1]), m[2] ?? "");
    sendJson(res, 404, errorBody(`Unknown request URL: ${req.method ?? ""} ${path}`, 404));
  }

  const server = createServer((req, res) => {
    route(req, res).catch((err: unknown) => {
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

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(opts.port ?? 0, opts.host ?? "127.0.0.1", () => {
      server.off("error", reject);
      resolve();
    });
  });
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
