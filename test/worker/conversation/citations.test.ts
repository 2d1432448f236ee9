import { inject } from "vitest";
import { describe, expect, it } from "vitest";
import { api, createConversation, modelRequests, readSse, script, uniqueKey, untilRunEnd } from "../helpers";

const page = (path: string) => `${inject("pageUrl")}${path}`;
const QUOTE = "links the Black Forest with the Black Sea";
const INVENTED = "the Danube is the coldest river of the whole continent";

type Result = {
  status: string;
  output: unknown;
  citations: { url: string; read: boolean; quotes: string[]; quotes_found: string[] }[] | null;
  uncited_quotes: { quote: string; found: boolean }[] | null;
  citations_unverified: number | null;
  revisions: number;
};

async function send(id: string, json: Record<string, unknown>): Promise<Result> {
  const res = await api(`/v1/conversations/${id}/messages`, {
    method: "POST",
    json: { stream: false, ...json },
  });
  expect(res.status).toBe(200);
  return (await res.json()) as Result;
}

const fetchTurn = (url: string) => ({ tool_calls: [{ name: "web_fetch", arguments: { url } }] });

describe("citations checked against what the run read", () => {
  it("flags a page never read, sends the run back once, and records the revised result", async () => {
    const key = uniqueKey("cite-revise");
    const read = page("/web/article");
    const unread = page("/web/never-read");
    await script(key, [
      fetchTurn(read),
      { text: `Rivers: [article](${read}) and [other](${unread}).` },
      { text: `Rivers: [article](${read}).` },
    ]);
    const id = await createConversation(key);
    const res = await api(`/v1/conversations/${id}/messages`, {
      method: "POST",
      json: { content: "research rivers", verify_citations: "revise" },
    });
    const events = await readSse(res, untilRunEnd);
    const checks = events
      .filter((e) => e.data.type === "CUSTOM" && e.data.name === "citations_checked")
      .map((e) => e.data.value as { cited: number; unverified: number; revision: number });
    expect(checks.map(({ cited, unverified, revision }) => ({ cited, unverified, revision }))).toEqual([
      { cited: 2, unverified: 1, revision: 0 },
      { cited: 1, unverified: 0, revision: 1 },
    ]);
    const finished = events.at(-1)!.data;
    expect(finished).toMatchObject({
      type: "RUN_FINISHED",
      result: `Rivers: [article](${read}).`,
      citations: [{ url: read, read: true, quotes: [], quotes_found: [] }],
      citations_unverified: 0,
      revisions: 1,
    });
    // The revision is a new user message after the first answer; earlier messages are unchanged.
    const [, first, second] = await modelRequests(key);
    const revision = second.messages.at(-1)!;
    expect(revision.role).toBe("user");
    expect(String(revision.content)).toContain(unread);
    expect(String(revision.content)).toContain("revision 1 of 1");
    expect(second.messages.slice(0, first.messages.length)).toEqual(first.messages);
  });

  it("with flag (the conversation default) records the unverified citation without sending the run back", async () => {
    const key = uniqueKey("cite-flag");
    const unread = page("/web/never-read");
    await script(key, [{ text: `See ${unread}.` }]);
    const id = await createConversation(key);
    const out = await send(id, { content: "go" });
    expect(out).toMatchObject({
      status: "succeeded",
      citations: [{ url: unread, read: false }],
      citations_unverified: 1,
      revisions: 0,
    });
    expect(await modelRequests(key)).toHaveLength(1);
  });

  it("finds a quotation that is on the page read and not one that was invented", async () => {
    const key = uniqueKey("cite-quotes");
    const read = page("/web/article");
    await script(key, [fetchTurn(read), { text: `It “${QUOTE}” and “${INVENTED}” ([source](${read})).` }]);
    const id = await createConversation(key);
    const out = await send(id, { content: "quote it" });
    expect(out.citations).toEqual([
      { url: read, read: true, quotes: [QUOTE, INVENTED], quotes_found: [QUOTE] },
    ]);
    expect(out.citations_unverified).toBe(1);
  });

  it("counts a redirect as read under the URL asked for and the URL it ended at", async () => {
    const key = uniqueKey("cite-redirect");
    const requested = page("/web/redirect");
    const final = page("/web/article");
    await script(key, [
      fetchTurn(requested),
      { text: `“${QUOTE}” [asked](${requested})\n\n“${QUOTE}” [landed](${final})` },
    ]);
    const id = await createConversation(key);
    const out = await send(id, { content: "go" });
    expect(out.citations!.map((c) => [c.url, c.read, c.quotes_found.length])).toEqual([
      [requested, true, 1],
      [final, true, 1],
    ]);
    expect(out.citations_unverified).toBe(0);
  });

  it("counts what a sub-agent read", async () => {
    const key = uniqueKey("cite-sub");
    const read = page("/web/article");
    await script(key, [
      { tool_calls: [{ name: "agent", arguments: { prompt: "read the article", type: "researcher" } }] },
      fetchTurn(read),
      { text: "read it" },
      { text: `“${QUOTE}” (${read})` },
    ]);
    const id = await createConversation(key);
    const out = await send(id, { content: "delegate" });
    expect(out.citations).toEqual([{ url: read, read: true, quotes: [QUOTE], quotes_found: [QUOTE] }]);
  });

  it("checks nothing with verify_citations off", async () => {
    const key = uniqueKey("cite-off");
    await script(key, [{ text: `See ${page("/web/never-read")}.` }]);
    const id = await createConversation(key, { verify_citations: "off" });
    const out = await send(id, { content: "go" });
    expect(out).toMatchObject({ citations: null, citations_unverified: null, uncited_quotes: null });
  });
});
