import type { BrowserContext, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { signedIn } from "./support/signed-in";
import {
  cirrusApi,
  type HostServer,
  hostPage,
  newWorkspace,
  type Stack,
  scriptWidget,
  startHost,
  startStack,
  widgetRequests,
} from "./support/stack";
import { openWidget, sendMessage, waitForWidgetText, widgetTexts } from "./support/widget-page";

let stack: Stack;
let host: HostServer;
let sk: string;
let pk: string;
const contexts: BrowserContext[] = [];

async function newContextPage(url: string): Promise<Page> {
  const ctx = await stack.browser.newContext({ viewport: { width: 1100, height: 800 } });
  contexts.push(ctx);
  const page = await ctx.newPage();
  await page.goto(url);
  return page;
}

/** The last tool results the model received, in order. */
async function lastToolResults(requests: { messages: { role: string; content: unknown }[] }[]) {
  return requests
    .at(-1)!
    .messages.filter((m) => m.role === "tool")
    .map((m) => String(m.content));
}

const write = (id: string, path: string, content: string) => ({
  tool_calls: [{ id, name: "opfs_write", arguments: { path, content } }],
});

beforeAll(async () => {
  stack = await startStack();
  host = await startHost();
  ({ sk, pk } = await newWorkspace(stack, "approvals", host.origin));
  await cirrusApi(stack, "/v1/settings", sk, {
    method: "PUT",
    json: { approvals: { "opfs_w*": "ask" }, widget: { tools: ["opfs_*"] } },
  });
  host.setPage(hostPage(stack.cirrus, { key: pk }));
});

afterEach(async () => {
  for (const ctx of contexts.splice(0)) await ctx.close().catch(() => {});
});

afterAll(async () => {
  await host?.close().catch(() => {});
  await stack?.stop();
});

/** The owner's decision on the one pending approval of a conversation (the widget cannot decide). */
async function ownerDecides(conversation: string, decision: "approve" | "deny"): Promise<void> {
  const c = await cirrusApi<{ pending_approvals: { approval_id: string }[] }>(
    stack,
    `/v1/conversations/${conversation}`,
    sk,
  );
  const [pending] = c.pending_approvals;
  await cirrusApi(stack, `/v1/conversations/${conversation}/approvals/${pending.approval_id}`, sk, {
    method: "POST",
    json: { decision },
  });
}

describe("approvals in the widget", () => {
  it("show the visitor the tool and its arguments without buttons, and go on when the owner approves or denies", async () => {
    await scriptWidget(stack.model, [
      write("call_ok", "notes/plan.md", "# Plan\n"),
      { text: "Saved your plan." },
      write("call_no", "notes/secret.md", "nope"),
      { text: "Understood, I did not save it." },
    ]);
    const page = await newContextPage(host.origin);
    await openWidget(page);
    await sendMessage(page, "Save my plan");
    await waitForWidgetText(page, ".approval", "opfs_write");
    expect(await widgetTexts(page, ".approval-title")).toEqual(["Approval needed: opfs_write"]);
    const [args] = await widgetTexts(page, ".approval-args");
    expect(JSON.parse(args)).toEqual({ path: "notes/plan.md", content: "# Plan\n" });
    expect((await widgetTexts(page, ".approval-reason"))[0]).toContain('"opfs_w*": "ask"');
    // The visitor cannot decide: no buttons, a note that the site's owner will.
    expect(await page.locator("button.approval-approve").count()).toBe(0);
    expect(await widgetTexts(page, ".approval-waiting")).toEqual([
      "Waiting for the site's owner to approve or deny it.",
    ]);
    const { data } = await cirrusApi<{ data: { id: string; metadata: { visitor_id: string } }[] }>(
      stack,
      "/v1/conversations?limit=1",
      sk,
    );
    const [conversation] = data;
    const plan = `/v1/files/visitors/${conversation.metadata.visitor_id}/notes/plan.md`;
    // Not written before the owner approves.
    const before = await fetch(`${stack.cirrus}${plan}`, { headers: { authorization: `Bearer ${sk}` } });
    expect(before.status).toBe(404);

    await ownerDecides(conversation.id, "approve");
    await waitForWidgetText(page, ".msg.assistant", "Saved your plan.");
    expect(await widgetTexts(page, ".approval")).toEqual([]);
    const file = await fetch(`${stack.cirrus}${plan}`, { headers: { authorization: `Bearer ${sk}` } });
    expect(await file.text()).toBe("# Plan\n");

    await sendMessage(page, "Now save the secret");
    await waitForWidgetText(page, ".approval-args", "notes/secret.md");
    await ownerDecides(conversation.id, "deny");
    await waitForWidgetText(page, ".msg.assistant", "Understood, I did not save it.");
    expect(await widgetTexts(page, ".approval")).toEqual([]);
    const results = await lastToolResults(await widgetRequests(stack.model));
    expect(JSON.parse(results.at(-1)!)).toEqual({
      ok: false,
      error: { code: "denied", message: "A person denied this call." },
    });
  });
});

describe("approvals in the dashboard", () => {
  it("list a running conversation's pending calls with Approve / Deny, each decided separately", async () => {
    const SCRIPT = "dashboard-approvals";
    const put = await fetch(`${stack.model.url}/__scripts/${SCRIPT}`, {
      method: "PUT",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        turns: [
          {
            tool_calls: [
              { id: "a", name: "opfs_write", arguments: { path: "dash/a.md", content: "A" } },
              { id: "b", name: "opfs_write", arguments: { path: "dash/b.md", content: "B" } },
            ],
          },
          { text: "One saved, one refused." },
        ],
      }),
    });
    expect(put.status).toBe(200);
    const conv = await cirrusApi<{ id: string }>(stack, "/v1/conversations", sk, {
      method: "POST",
      json: { model: SCRIPT },
    });
    const run = cirrusApi<{ status: string; output: string }>(
      stack,
      `/v1/conversations/${conv.id}/messages`,
      sk,
      {
        method: "POST",
        json: { content: "Save both", stream: false },
      },
    );

    const page = await signedIn(stack, sk, { contexts });
    await page.goto(`${stack.cirrus}/dashboard/#/conversations/${conv.id}`);
    const cardA = page.locator(".approval", { hasText: "dash/a.md" });
    const cardB = page.locator(".approval", { hasText: "dash/b.md" });
    await cardA.waitFor({ timeout: 20_000 });
    await cardB.waitFor();
    expect(await page.locator(".approval-title").allTextContents()).toEqual([
      "Approval needed: opfs_write",
      "Approval needed: opfs_write",
    ]);

    await cardA.getByRole("button", { name: "Approve" }).click();
    await cardA.waitFor({ state: "detached" });
    expect(await cardB.isVisible()).toBe(true);
    await cardB.getByRole("button", { name: "Deny" }).click();
    expect(await run).toMatchObject({ status: "succeeded", output: "One saved, one refused." });
    await cardB.waitFor({ state: "detached" });
    await page.locator(".approval-row", { hasText: "opfs_write denied" }).waitFor();
    expect(await page.locator(".approval-row").allTextContents()).toEqual([
      "opfs_write approved",
      "opfs_write denied (A person denied this call.)",
    ]);
    const a = await fetch(`${stack.cirrus}/v1/files/dash/a.md`, {
      headers: { authorization: `Bearer ${sk}` },
    });
    expect(await a.text()).toBe("A");
    const b = await fetch(`${stack.cirrus}/v1/files/dash/b.md`, {
      headers: { authorization: `Bearer ${sk}` },
    });
    expect(b.status).toBe(404);
  });
});
