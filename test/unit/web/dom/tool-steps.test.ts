/** Unit tests of the web UI that need the DOM's types: type-checked with test/e2e's tsconfig (DOM lib), run in Node on linkedom. */
import { parseHTML } from "linkedom";
import { beforeAll, describe, expect, it } from "vitest";
import { ToolSteps } from "../../../../web/ui/tool-steps";

beforeAll(() => {
  (globalThis as { document?: Document }).document = parseHTML("<html><body></body></html>").document;
});

const strings = { running: "running", done: "done", failed: "failed" };

describe("a transcript's tool steps", () => {
  it("show a call_tool step under the name of the tool it called", () => {
    const rows: HTMLElement[] = [];
    const steps = new ToolSteps(strings, false, (row) => rows.push(row));
    steps.start("c", "call_tool");
    steps.args("c", '{"name":"crm_lookup",');
    steps.args("c", '"arguments":{"email":"a@x.test"}}');
    steps.start("w", "web_fetch");
    steps.result("c", '{"name":"Ann"}', false);
    steps.result("w", "{}", false);
    const names = rows.map((r) => r.querySelector(".tool-name")?.textContent);
    expect(names).toEqual(["crm_lookup", "web_fetch"]);
    expect(rows[0].getAttribute("data-status")).toBe("done");
  });
});
