/**
 * Every surface of a conversation a user or the model can see, as text, for the secret-leak
 * sweep: what the model was sent, the run's stream and its replay, the conversation and its
 * messages, its tabs, every workspace file, its browser recordings, the webhook deliveries, the
 * spans the OTLP receiver got, and what the Worker and its objects wrote to the console.
 */
import { inject } from "vitest";
import { api, modelRequests, readSse, type SseMessage, untilRunEnd } from "../helpers";

/** One surface: a name and everything on it. */
export interface Surface {
  name: string;
  text: string;
}

const get = async (path: string, token: string) => {
  const res = await api(path, { token });
  return `${res.status} ${await res.text()}`;
};

/** Every workspace file's path and bytes (as text), walking the folders. */
async function files(token: string, folder = ""): Promise<Surface[]> {
  const res = await api(`/v1/files?path=${encodeURIComponent(folder)}&limit=100`, { token });
  const list = (await res.json()) as { entries: { name: string; kind: string }[] };
  const out: Surface[] = [{ name: `files list ${folder}`, text: JSON.stringify(list) }];
  for (const e of list.entries) {
    const path = folder ? `${folder}/${e.name}` : e.name;
    if (e.kind === "directory") out.push(...(await files(token, path)));
    else out.push({ name: `file ${path}`, text: await get(`/v1/files/${path}`, token) });
  }
  return out;
}

/** Every page of every browser recording of the conversation. */
async function recordings(conv: string, token: string): Promise<Surface[]> {
  const list = await get(`/v1/conversations/${conv}/recordings`, token);
  const out: Surface[] = [{ name: "recordings list", text: list }];
  const ids = [...list.matchAll(/"id":"(rec_[^"]+)"/g)].map((m) => m[1]);
  for (const id of new Set(ids)) {
    for (let cursor = "0"; cursor; ) {
      const res = await api(`/v1/conversations/${conv}/recordings/${id}?cursor=${cursor}`, { token });
      const page = (await res.json()) as { next_cursor: string | null };
      out.push({ name: `recording ${id} page ${cursor}`, text: JSON.stringify(page) });
      cursor = page.next_cursor ?? "";
    }
  }
  return out;
}

/** What the conversation's own routes show. */
async function conversationSurfaces(conv: string, token: string): Promise<Surface[]> {
  const replay = await readSse(await api(`/v1/conversations/${conv}/events`, { token }), untilRunEnd);
  return [
    { name: "events replay", text: JSON.stringify(replay) },
    { name: "conversation", text: await get(`/v1/conversations/${conv}`, token) },
    { name: "messages", text: await get(`/v1/conversations/${conv}/messages?limit=100`, token) },
    { name: "tabs", text: await get(`/v1/conversations/${conv}/tabs`, token) },
  ];
}

/** Everything, from a run's stream, its model's script key, its webhook receiver and the console. */
export async function surfacesOf(opts: {
  conv: string;
  token: string;
  model: string;
  stream: SseMessage[];
  receiver: string;
  console: unknown[][];
}): Promise<Surface[]> {
  const { conv, token } = opts;
  const page = inject("pageUrl");
  const spans = await fetch(`${inject("otlpControlUrl")}/spans`);
  return [
    { name: "model requests", text: JSON.stringify(await modelRequests(opts.model)) },
    { name: "run stream", text: JSON.stringify(opts.stream) },
    ...(await conversationSurfaces(conv, token)),
    ...(await files(token)),
    ...(await recordings(conv, token)),
    { name: "webhooks", text: await (await fetch(`${page}/receiver/${opts.receiver}/log`)).text() },
    { name: "spans", text: await spans.text() },
    { name: "console", text: JSON.stringify(opts.console.map((args) => args.map(String))) },
  ];
}

/** The surfaces on which any of the values (or, for each, its JSON- or URL-escaped form) appears. */
export function leaks(surfaces: Surface[], values: Record<string, string>): string[] {
  const found: string[] = [];
  for (const s of surfaces)
    for (const [what, v] of Object.entries(values))
      for (const form of new Set([v, JSON.stringify(v).slice(1, -1), encodeURIComponent(v)]))
        if (s.text.includes(form)) found.push(`${what} on ${s.name}`);
  return [...new Set(found)];
}
