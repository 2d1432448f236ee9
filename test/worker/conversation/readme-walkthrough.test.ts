/// <reference types="vite/client" />
/**
 * The README's "A conversation with curl", run as written: its curl commands are read from
 * README.md itself and sent in order to the Worker, and each answer is checked against what the
 * README shows under it (the JSON fields, the stream's first `id:`/`data:` and the events it names,
 * the reconnect's first event after Last-Event-ID). docs/api.md repeats the block word for word.
 * One change: the new conversation is given a scripted model (the README's talks to a real one),
 * which plans the trip with three tasks and then answers.
 */
import { describe, expect, it } from "vitest";
import apiMd from "../../../docs/api.md?raw";
import readme from "../../../README.md?raw";
import { type CurlStep, curlSteps, matchesShown, shellBlock, shownFields } from "../../support/readme-curl";
import { ADMIN, api, readSse, type SseMessage, script, uniqueKey, untilRunEnd } from "../helpers";

const SECTION = "## A conversation with curl";

/** Sends one step as curl would: `$CIRRUS`, `$TOKEN` and `conv_…` filled in. */
function send(step: CurlStep, conversation: string | null, model: string): Promise<Response> {
  const fill = (s: string) =>
    s
      .replace("$CIRRUS", "")
      .replace("$TOKEN", ADMIN)
      .replace("conv_…", conversation ?? "conv_…");
  const path = fill(step.url);
  let body = step.body;
  if (path === "/v1/conversations" && body) body = JSON.stringify({ ...JSON.parse(body), model });
  const headers = step.headers.map(([k, v]) => [k, fill(v)] as [string, string]);
  return api(path, { method: step.method, headers, body, token: null });
}

/** The JSON answer shown (`=> {…}`) matches the body's fields. */
function expectJson(shown: string, body: Record<string, unknown>, fill: (s: string) => string) {
  const fields = shownFields(fill(shown));
  expect(fields.length).toBeGreaterThan(0);
  for (const [key, want] of fields) expect(matchesShown(body[key], want), `${key}: ${want}`).toBe(true);
}

/** The stream shown (`id: 1`, `data: {…}`, `…A / B_* … LAST`) matches the messages read. */
function expectStream(shown: string[], messages: SseMessage[], fill: (s: string) => string) {
  const id = shown.find((l) => l.startsWith("id: "));
  const data = shown.find((l) => l.startsWith("data: "));
  const named = shown.find((l) => l.startsWith("…"));
  expect(id && data && named, shown.join("\n")).toBeTruthy();
  expect(messages[0].id).toBe(Number(id?.slice(4)));
  expectJson(data ?? "", messages[0].data, fill);
  const types = messages.map((m) => m.data.type);
  const names = named?.match(/[A-Z][A-Z_]+\*?/g) ?? [];
  for (const name of names)
    expect(
      types.some((t) => (name.endsWith("*") ? t.startsWith(name.slice(0, -1)) : t === name)),
      `${name} in ${types.join(",")}`,
    ).toBe(true);
  expect(types.at(-1)).toBe(names.at(-1));
}

describe("the README's conversation with curl", () => {
  const steps = curlSteps(shellBlock(readme, SECTION));

  it("is the same walkthrough in docs/api.md", () => {
    expect(shellBlock(apiMd, SECTION)).toBe(shellBlock(readme, SECTION));
  });

  it("answers each command as the README shows", async () => {
    expect(steps.map((s) => `${s.method} ${s.url}`)).toEqual([
      "POST $CIRRUS/v1/conversations",
      "POST $CIRRUS/v1/conversations/conv_…/messages",
      "POST $CIRRUS/v1/conversations/conv_…/messages",
      "GET $CIRRUS/v1/conversations/conv_…/events",
    ]);
    const model = uniqueKey("readme");
    const task = (subject: string, i: number) => ({
      id: `call_${i}`,
      name: "create_task",
      arguments: { subject },
    });
    await script(model, [
      { tool_calls: ["Book flights", "Pick a hotel in Alfama", "Plan the days"].map(task) },
      { text: "Three tasks: flights, hotel, days." },
      { text: "About 900 EUR for three days." },
    ]);
    let conversation: string | null = null;
    const fill = (s: string) => s.replace("conv_…", conversation ?? "conv_…");
    for (const step of steps) {
      const res = await send(step, conversation, model);
      expect(res.ok, `${step.title}: ${res.status}`).toBe(true);
      const lastEventId = step.headers.find(([k]) => k.toLowerCase() === "last-event-id")?.[1];
      if (step.shown[0]?.startsWith("=> ")) {
        const body = (await res.json()) as Record<string, unknown>;
        expectJson(step.shown[0].slice(3), body, fill);
        conversation ??= body.id as string;
      } else if (lastEventId) {
        // The events stream stays open: the first events after the one named are enough.
        const after = Number(lastEventId);
        const messages = await readSse(res, (_m, all) => all.length === 3);
        expect(messages.map((m) => m.id)).toEqual([after + 1, after + 2, after + 3]);
      } else {
        expect(res.headers.get("content-type")).toContain("text/event-stream");
        expectStream(step.shown, await readSse(res, untilRunEnd), fill);
      }
    }
  });
});
