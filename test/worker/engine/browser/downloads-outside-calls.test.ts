import { runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { api, createConversation, eventually, uniqueKey } from "../../helpers";
import { BROWSER_TEST_TIMEOUT_MS, fleetObject, ok, page } from "./browser-helpers";

const T = BROWSER_TEST_TIMEOUT_MS;

/** The methods of the requests the page server saw for a marker. */
async function hits(id: string): Promise<string[]> {
  const res = await fetch(page(`/guard/hits?id=${encodeURIComponent(id)}`));
  return ((await res.json()) as { methods: string[] }).methods;
}

/** Downloads the conversation's browser has decided since its last tool call's report (the fleet's catcher). */
function caughtOutside(conv: string): Promise<number> {
  return runInDurableObject(fleetObject(), (obj) => {
    const fleet = (obj as unknown as { fleet: { browsers: Map<string, unknown> } }).fleet;
    const browser = fleet.browsers.get(conv) as { downloads: { done: unknown[] } };
    return browser.downloads.done.length;
  });
}

describe("downloads no tool call started", () => {
  it(
    "saves at most BROWSER_DOWNLOADS_PER_RUN downloads a page's timer starts between two tool calls; the next call reports the saved and the refused",
    async () => {
      const conv = await createConversation("echo");
      await ok(conv, "open_tab", { url: page("/files/links") });
      const mark = uniqueKey("timed");
      const names = [0, 1, 2, 3].map((i) => `${mark}-${i}.bin`);
      // Once the test says so (after the call returned), the page starts four downloads at once.
      const armed = await ok(conv, "execute_script", {
        target: "page",
        world: "MAIN",
        code: `fetch("/guard/wait?id=${mark}").then(() => {
          for (const name of ${JSON.stringify(names)}) {
            const frame = document.createElement("iframe");
            frame.src = "/files/attachment?name=" + name;
            document.body.append(frame);
          }
        }); "armed"`,
      });
      expect(armed.result).toBe("armed");
      await eventually(async () => {
        const held = (await (await fetch(page(`/guard/held?id=${mark}`))).json()) as { waiting: number };
        return held.waiting === 1;
      }, 20_000);
      await fetch(page(`/guard/release?id=${mark}`));
      for (const name of names)
        await eventually(async () => (await hits(`attachment-${name}`)).length === 1, 20_000);
      // Every one of the four is decided (saved or refused) before the next call begins.
      await eventually(async () => (await caughtOutside(conv)) === 4, 20_000);

      const saved: string[] = [];
      for (const name of names)
        if ((await api(`/v1/files/downloads/${name}`)).status === 200) saved.push(name);
      expect(saved).toHaveLength(3);
      const refusedName = names.find((n) => !saved.includes(n))!;
      // The next tool call tells the model what came of them.
      const next = await ok(conv, "list_tabs");
      const reported = next.downloads as { path?: string; url: string; refused?: string }[];
      expect(
        reported
          .filter((d) => d.path)
          .map((d) => d.path)
          .sort(),
      ).toEqual(saved.map((n) => `downloads/${n}`).sort());
      expect(reported.filter((d) => d.refused)).toEqual([
        {
          url: page(`/files/attachment?name=${refusedName}`),
          refused: "3 downloads were already saved since the last tool call (the limit outside tool calls)",
        },
      ]);
      expect((await ok(conv, "list_tabs")).downloads).toBeUndefined();
    },
    T,
  );
});
