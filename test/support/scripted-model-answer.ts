/**
 * How the scripted OpenAI-compatible model server (see ./scripted-model.ts) answers one turn:
 * a dropped connection, a scripted error (429 with Retry-After, 500, ...), one JSON completion,
 * or a stream of chunks — any of the last two optionally cut off mid-way.
 */
import type { ServerResponse } from "node:http";
import { sendJson, sleep, write } from "./scripted-model-http.ts";
import {
  type ErrorTurn,
  isRecord,
  type Output,
  outputOf,
  randomId,
  type Turn,
} from "./scripted-model-turns.ts";
import {
  type CacheShape,
  cachedPromptTokens,
  type Usage,
  usageFor,
  withCachedTokens,
} from "./scripted-model-usage.ts";
import { completionBody, type Envelope, envelope, errorBody, streamChunks } from "./scripted-model-wire.ts";

/** One answer's envelope, output and usage: what a completion body or its chunks are built from. */
interface Completion {
  env: Envelope;
  out: Output;
  usage: Usage;
}

/**
 * Answers `turn` to the chat request `body`. `cache` is the script's prompt-cache shape, if any;
 * `previous` is the request before this one under the same key (the cache's prefix).
 */
export async function answer(
  turn: Turn,
  body: Record<string, unknown>,
  res: ServerResponse,
  signal: AbortSignal,
  cache: CacheShape | undefined,
  previous?: unknown,
): Promise<void> {
  if ("drop" in turn) {
    res.socket?.destroy();
    return;
  }
  if ("error" in turn) return sendScriptedError(res, turn.error);
  const model = String(body.model);
  const stream = body.stream === true;
  const includeUsage = stream && isRecord(body.stream_options) && body.stream_options.include_usage === true;
  const out = outputOf(turn);
  const env = envelope(model, includeUsage);
  const counted = usageFor(out, body.messages, turn.usage);
  const usage = cache
    ? withCachedTokens(counted, cachedPromptTokens(previous, body, counted.prompt_tokens), cache)
    : counted;
  const breakAfter = "stream_error_after_chunks" in turn ? turn.stream_error_after_chunks : undefined;
  const completion: Completion = { env, out, usage };
  if (!stream || turn.json_response) return sendCompletion(res, completion, breakAfter);
  return streamCompletion(res, completion, breakAfter, turn.chunk_delay_ms, signal);
}

/** The scripted error status and body, with Retry-After when the turn gives one (a 429's). */
function sendScriptedError(res: ServerResponse, error: ErrorTurn["error"]): void {
  const { status, retry_after, message } = error;
  const headers: Record<string, string> =
    retry_after === undefined ? {} : { "retry-after": String(retry_after) };
  sendJson(res, status, errorBody(message ?? `scripted error ${status}`, status), headers);
}

/** One JSON completion; with `breakAfter` set, only its first half and then a destroyed socket. */
async function sendCompletion(
  res: ServerResponse,
  { env, out, usage }: Completion,
  breakAfter: number | undefined,
): Promise<void> {
  if (breakAfter === undefined) return sendJson(res, 200, completionBody(env, out, usage));
  const text = JSON.stringify(completionBody(env, out, usage));
  res.writeHead(200, {
    "content-type": "application/json",
    "content-length": String(Buffer.byteLength(text)),
  });
  await write(res, text.slice(0, Math.floor(text.length / 2)));
  res.destroy();
}

/**
 * The completion as SSE chunks and `[DONE]`, `chunkDelayMs` apart; with `breakAfter` set, the
 * socket is destroyed after that many content chunks instead. Stops quietly once `signal` aborts.
 */
async function streamCompletion(
  res: ServerResponse,
  { env, out, usage }: Completion,
  breakAfter: number | undefined,
  chunkDelayMs: number | undefined,
  signal: AbortSignal,
): Promise<void> {
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
    if (chunkDelayMs && i < limit - 1 && !(await sleep(chunkDelayMs, signal))) return;
  }
  if (breakAfter !== undefined) {
    res.destroy();
    return;
  }
  res.end("data: [DONE]\n\n");
}
