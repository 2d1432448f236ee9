import type { BrowserContext } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { signedIn } from "./support/signed-in";
import { cirrusApi, type HostServer, newWorkspace, type Stack, startHost, startStack } from "./support/stack";

/** The page the agent browses: a button, and a counter that ticks 40 times, 100 ms apart. */
const SITE = `<!doctype html><title>Ticking shop</title><body><h1>Ticking shop</h1>
<p id="said">Not clicked yet</p><button id="b">Buy</button><p id="tick">tick 0</p><script>
let t = 0;
const timer = setInterval(() => { t += 1; document.getElementById("tick").textContent = "tick " + t; if (t >= 40) clearInterval(timer); }, 100);
document.getElementById("b").addEventListener("click", () => { document.getElementById("said").textContent = "Clicked the button"; });
</script></body>`;
const SCRIPT = "recording-e2e";

let stack: Stack;
let site: HostServer;
let sk: string;
const contexts: BrowserContext[] = [];

async function waitFor<T>(check: () => Promise<T | null | false>, ms = 30_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await check();
    if (v) return v;
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** Every event of the conversation's one recording, once the page's last tick is stored. */
async function recordedEvents(conv: string): Promise<string> {
  return waitFor(async () => {
    const list = await cirrusApi<{ data: { id: string }[] }>(
      stack,
      `/v1/conversations/${conv}/recordings`,
      sk,
    );
    if (list.data.length !== 1) return null;
    let text = "";
    let cursor: string | null = "0";
    while (cursor !== null) {
      const page: { events: unknown[]; next_cursor: string | null } = await cirrusApi(
        stack,
        `/v1/conversations/${conv}/recordings/${list.data[0].id}?cursor=${cursor}`,
        sk,
      );
      text += JSON.stringify(page.events);
      cursor = page.next_cursor;
    }
    return text.includes("tick 40") && text.includes("Clicked the button") ? text : null;
  }).catch(async (err) => {
    const list = await cirrusApi(stack, `/v1/conversations/${conv}/recordings`, sk);
    throw new Error(`${String(err)}: recordings ${JSON.stringify(list)}`);
  });
}

beforeAll(async () => {
  stack = await startStack();
  site = await startHost();
  site.setPage(SITE);
  ({ sk } = await newWorkspace(stack, "recording", site.origin));
});

/** The agent opens the page and clicks its button, with recording on; resolves once it is stored. */
async function recordedRun(): Promise<string> {
  const put = await fetch(`${stack.model.url}/__scripts/${SCRIPT}`, {
    method: "PUT",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      turns: [
        { tool_calls: [{ name: "open_tab", arguments: { url: `${site.origin}/` } }] },
        { tool_calls: [{ name: "click", arguments: { selector: "#b" } }] },
        { text: "Bought it." },
      ],
    }),
  });
  expect(put.status).toBe(200);
  const conv = await cirrusApi<{ id: string }>(stack, "/v1/conversations", sk, {
    method: "POST",
    json: { model: SCRIPT, recording: true },
  });
  const run = await cirrusApi<{ output: string }>(stack, `/v1/conversations/${conv.id}/messages`, sk, {
    method: "POST",
    json: { content: "Buy the thing", stream: false },
  });
  expect(run.output).toBe("Bought it.");
  await recordedEvents(conv.id);
  return conv.id;
}

afterEach(async () => {
  for (const ctx of contexts.splice(0)) await ctx.close().catch(() => {});
});

afterAll(async () => {
  await site?.close();
  await stack?.stop();
});

describe("the dashboard's recording player", () => {
  it("replays the page, seeks, marks the tool calls on the timeline and plays faster", async () => {
    const conversationId = await recordedRun();
    const page = await signedIn(stack, sk, { contexts, viewport: { width: 1100, height: 1000 } });
    await page.goto(`${stack.cirrus}/dashboard/#/conversations/${conversationId}`);
    const row = page.locator(".recordings .row").first();
    await row.waitFor({ timeout: 30_000 });
    expect(await row.textContent()).toContain(`Tab 1 · ${site.origin}/`);
    await row.locator("button[data-recording]").click();

    // The replayed page, in rrweb's frame.
    const frame = page.frameLocator(".replay-stage iframe");
    await frame.getByRole("heading", { name: "Ticking shop" }).waitFor({ timeout: 30_000 });
    const seek = page.getByLabel("Seek");
    const total = Number(await seek.getAttribute("max"));
    expect(total).toBeGreaterThan(3_000);

    // Each tool call is on the timeline; pressing one shows the page as it was when the call started.
    const marks = page.getByRole("group", { name: "Tool calls" }).getByRole("button");
    await expect.poll(() => marks.count()).toBeGreaterThanOrEqual(2);
    await page.getByRole("button", { name: /^open_tab at / }).waitFor();
    await page.getByRole("button", { name: /^click at / }).click();
    await expect.poll(() => page.locator(".replay-current").textContent()).toBe("Tool: click");
    await expect.poll(() => frame.locator("#said").textContent()).toBe("Not clicked yet");
    const atClick = Number(await seek.inputValue());
    expect(atClick).toBeGreaterThan(0);
    expect(atClick).toBeLessThan(total);

    // Seeking to the end shows the page's last state, and no tool running then.
    await seek.fill(String(total));
    await expect.poll(() => frame.locator("#said").textContent()).toBe("Clicked the button");
    await expect.poll(() => frame.locator("#tick").textContent()).toBe("tick 40");
    expect(await page.locator(".replay-current").textContent()).toBe("");
    // Halfway: the counter is somewhere between its first and last tick.
    await seek.fill(String(Math.round(total / 2)));
    await expect
      .poll(async () => Number(((await frame.locator("#tick").textContent()) ?? "").replace("tick ", "")))
      .toBeGreaterThan(0);
    expect(Number(((await frame.locator("#tick").textContent()) ?? "").replace("tick ", ""))).toBeLessThan(
      40,
    );

    // At 8× the replay clock runs far ahead of the wall clock: 2 s of replay in well under 2 s
    // (timed inside the page, from the click on Play to the clock showing 2 s).
    await seek.fill("0");
    await page.getByLabel("Speed").selectOption("8");
    await page.evaluate(() => {
      const w = window as unknown as { playAt?: number; twoAt?: number };
      const play = document.querySelector("button[data-replay=play]") as HTMLElement;
      play.addEventListener("click", () => (w.playAt = performance.now()), { capture: true, once: true });
      const clock = document.querySelector(".replay-clock") as HTMLElement;
      new MutationObserver((_, observer) => {
        if (Number.parseFloat(clock.textContent ?? "0") < 2) return;
        w.twoAt = performance.now();
        observer.disconnect();
      }).observe(clock, { childList: true, characterData: true, subtree: true });
    });
    await page.locator("button[data-replay=play]").click();
    const took = await page.waitForFunction(
      () => {
        const w = window as unknown as { playAt?: number; twoAt?: number };
        return w.playAt !== undefined && w.twoAt !== undefined ? w.twoAt - w.playAt : 0;
      },
      undefined,
      { timeout: 15_000 },
    );
    expect(await took.jsonValue()).toBeLessThan(1_500);
    // It plays to the end and offers to play again.
    await expect
      .poll(() => page.locator("button[data-replay=play]").textContent(), { timeout: 15_000 })
      .toBe("Play");
    await expect.poll(() => frame.locator("#tick").textContent()).toBe("tick 40");
  }, 240_000);
});
