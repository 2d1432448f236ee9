/**
 * The scripts of the scripted OpenAI-compatible model server (see ./scripted-model.ts): each key's
 * turns, request log and held requests, and the `/__scripts/:key` control routes that manage them.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { readJson, sendJson } from "./scripted-model-http.ts";
import { isRecord, type Json, type Turn, turnProblem } from "./scripted-model-turns.ts";
import { CACHE_SHAPES, type CacheShape, lastUserText } from "./scripted-model-usage.ts";
import { errorBody } from "./scripted-model-wire.ts";

interface Script {
  turns: Turn[];
  cursor: number;
  repeat: boolean;
  cache?: CacheShape;
}

/** Every key's script, request log and the release callbacks of requests its `hang` turns hold. */
export class ScriptStore {
  private readonly scripts = new Map<string, Script>();
  private readonly logs = new Map<string, unknown[]>();
  private readonly held = new Map<string, Set<() => void>>();

  keys(): IterableIterator<string> {
    return this.scripts.keys();
  }

  /** Appends `body` to the request log of `key` and returns that log. */
  record(key: string, body: unknown): unknown[] {
    const log = this.logs.get(key) ?? [];
    this.logs.set(key, log);
    log.push(body);
    return log;
  }

  requests(key: string): unknown[] {
    return this.logs.get(key) ?? [];
  }

  /** The script's next turn, or a built-in key's answer (echo, bench*) while no script is registered. */
  nextTurn(key: string, body: Record<string, unknown>): Turn | undefined {
    const s = this.scripts.get(key);
    if (s) {
      if (s.repeat && s.turns.length > 0) return s.turns[s.cursor++ % s.turns.length];
      return s.cursor < s.turns.length ? s.turns[s.cursor++] : undefined;
    }
    if (key === "echo") return { text: `echo: ${lastUserText(body.messages)}` };
    if (key.startsWith("bench")) return { text: "ok" };
    return undefined;
  }

  cacheOf(key: string): CacheShape | undefined {
    return this.scripts.get(key)?.cache;
  }

  /** Hold until released (true) or until the client/server goes away (false). */
  hold(key: string, signal: AbortSignal): Promise<boolean> {
    return new Promise((resolve) => {
      const set = this.held.get(key) ?? new Set<() => void>();
      this.held.set(key, set);
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
  }

  heldCount(key: string): number {
    return this.held.get(key)?.size ?? 0;
  }

  /** Releases every request held under `key`; returns how many there were. */
  releaseAll(key: string): number {
    const set = this.held.get(key);
    const waiters = set ? [...set] : [];
    for (const release of waiters) release();
    return waiters.length;
  }

  /** Removes the script and its request log; returns whether a script existed. */
  remove(key: string): boolean {
    const existed = this.scripts.delete(key);
    this.logs.delete(key);
    return existed;
  }

  /** Replaces the script (or starts one), or appends `turns` to the existing one; returns its turn count. */
  save(key: string, turns: Turn[], replace: boolean, repeat: boolean, cache: CacheShape | undefined): number {
    const existing = this.scripts.get(key);
    if (replace || !existing)
      this.scripts.set(key, { turns, cursor: 0, repeat, ...(cache ? { cache } : {}) });
    else existing.turns.push(...turns);
    return this.scripts.get(key)?.turns.length ?? 0;
  }
}

/** `/__scripts/:key[/action]`: read the log, count or release held requests, delete, replace or append. */
export async function control(
  store: ScriptStore,
  req: IncomingMessage,
  res: ServerResponse,
  key: string,
  action: string,
): Promise<void> {
  const route = `${req.method ?? ""} ${action}`;
  if (route === "GET requests") return sendJson(res, 200, { requests: store.requests(key) as Json[] });
  if (route === "GET held") return sendJson(res, 200, { held: store.heldCount(key) });
  if (route === "POST release") return sendJson(res, 200, { released: store.releaseAll(key) });
  if (route === "DELETE ") return sendJson(res, 200, { deleted: store.remove(key) });
  if (route !== "PUT " && route !== "POST append")
    return sendJson(res, 404, errorBody(`unknown route ${route}`, 404));
  return saveScript(store, req, res, key, route === "PUT ");
}

/** PUT (replace) or POST append: validates `{ turns, repeat?, cache? }` and stores the turns. */
async function saveScript(
  store: ScriptStore,
  req: IncomingMessage,
  res: ServerResponse,
  key: string,
  replace: boolean,
): Promise<void> {
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
  const count = store.save(key, turns, replace, body.repeat === true, cache as CacheShape | undefined);
  sendJson(res, 200, { key, turns: count });
}
