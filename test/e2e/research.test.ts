import type { BrowserContext } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { signedIn } from "./support/signed-in";
import { ADMIN, cirrusApi, type HostServer, type Stack, startHost, startStack } from "./support/stack";

const MODEL = "research-e2e";
const QUOTE = "links the Black Forest with the Black Sea";
const CRITERION = "Names the Danube";

let stack: Stack;
let host: HostServer;
let sk: string;
const contexts: BrowserContext[] = [];

beforeAll(async () => {
  stack = await startStack();
  host = await startHost();
  host.setPage(
    `<!doctype html><html><head><title>Rivers of Europe</title></head><body><main><article><h1>Rivers of Europe</h1>
<p>The Danube flows through ten countries, more than any other river in the world, and ${QUOTE} over a length of 2,850 kilometres.</p>
<p>Rivers have shaped trade routes, borders and cities across the continent for thousands of years, and many capitals stand on their banks.</p>
</article></main></body></html>`,
  );
  const ws = await cirrusApi<{ id: string }>(stack, "/v1/workspaces", ADMIN, {
    method: "POST",
    json: { name: "research" },
  });
  sk = (
    await cirrusApi<{ key: string }>(stack, `/v1/workspaces/${ws.id}/keys`, ADMIN, {
      method: "POST",
      json: { name: "o" },
    })
  ).key;
});

afterEach(async () => {
  for (const ctx of contexts.splice(0)) await ctx.close().catch(() => {});
});

afterAll(async () => {
  await host?.close();
  await stack?.stop();
});

describe("research checks in the dashboard", () => {
  it("shows a job's research settings, its ledger's citations and grades, and the checks in its conversation", async () => {
    const unread = `${host.origin}/never-read`;
    const report = `The Danube “${QUOTE}” ([source](${host.origin}/)); see also ${unread}.`;
    const put = await fetch(`${stack.model.url}/__scripts/${MODEL}`, {
      method: "PUT",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        turns: [
          { tool_calls: [{ name: "web_fetch", arguments: { url: `${host.origin}/` } }] },
          { tool_calls: [{ name: "finish", arguments: { result: report } }] },
          { json: { grades: [{ criterion: CRITERION, pass: true, reason: "The Danube is named." }] } },
        ],
      }),
    });
    expect(put.status).toBe(200);
    const job = await cirrusApi<{ id: string }>(stack, "/v1/jobs", sk, {
      method: "POST",
      json: {
        name: "Danube digest",
        prompt: "Write about the Danube.",
        schedule: "@daily",
        model: MODEL,
        verify_citations: "flag",
        success_criteria: [CRITERION],
      },
    });
    await cirrusApi(stack, `/v1/jobs/${job.id}/run`, sk, { method: "POST" });
    let run: { status: string; conversation_id: string } | undefined;
    for (let i = 0; i < 300 && (!run || run.status === "running"); i++) {
      run = (await cirrusApi<{ data: (typeof run)[] }>(stack, `/v1/jobs/${job.id}/runs`, sk)).data[0];
      if (!run || run.status === "running") await new Promise((r) => setTimeout(r, 100));
    }
    expect(run?.status).toBe("succeeded");

    const page = await signedIn(stack, sk, { contexts });
    await page.goto(`${stack.cirrus}/dashboard/#/jobs/${job.id}`);
    const row = page.locator("tr[data-run='1']");
    await row.waitFor();
    expect(await row.locator(".run-citations").textContent()).toBe("1 unverified");
    expect(await row.locator(".run-grades").textContent()).toBe("1/1 passed");
    expect(await page.getByLabel("Verify citations").inputValue()).toBe("flag");
    expect(await page.getByLabel("Success criteria (one per line)").inputValue()).toBe(CRITERION);

    await page.goto(`${stack.cirrus}/dashboard/#/conversations/${run!.conversation_id}`);
    const citations = page.locator(".citations-row");
    await citations.waitFor();
    expect(await citations.locator("strong").textContent()).toBe("Citations checked: 2 cited, 1 unverified");
    expect(await citations.locator("li").allTextContents()).toEqual([
      `✓ read: ${host.origin}/ — 1/1 quotations found`,
      `✗ never read: ${unread}`,
    ]);
    expect(await page.locator(".grades-row li").allTextContents()).toEqual([
      `✓ ${CRITERION} — The Danube is named.`,
    ]);
  });
});
