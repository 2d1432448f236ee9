/**
 * The cursors of the four keyset lists (conversations, jobs, a job's runs, a webhook's deliveries):
 * a page's `next_cursor` still leads on when its last item was deleted meanwhile, the old bare-id
 * cursor still pages, and a cursor the list did not give is a 400 `invalid_cursor`.
 */
import { runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { JobLedger } from "../../../durable-objects/job/job-ledger";
import type { JobObject } from "../../../durable-objects/job/job-object";
import type { DeliveryLog } from "../../../durable-objects/webhook/delivery-log";
import { webhooksStub } from "../../../durable-objects/webhook/webhook-events";
import type { WebhookObject } from "../../../durable-objects/webhook/webhook-object";
import type { WebhookEvent } from "../../../schemas/webhooks";
import { api, env, newWorkspaceKey } from "../helpers";
import { createJob, pageUrl, stubOf } from "../job/jobs-helpers";

interface Page {
  data: { id: string }[];
  has_more: boolean;
  next_cursor: string | null;
}

const job = { name: "Digest", prompt: "Summarise.", schedule: "0 7 * * 1-5" };

/** One page of `list`, two items at most, after `cursor`. */
async function page(list: string, token: string | undefined, cursor?: string | null): Promise<Page> {
  const after = cursor ? `&cursor=${encodeURIComponent(cursor)}` : "";
  const res = await api(`${list}?limit=2${after}`, { token });
  expect(res.status, await res.clone().text()).toBe(200);
  return (await res.json()) as Page;
}

/** The ids of every page from `cursor` on, following `next_cursor` to the end. */
async function idsFrom(list: string, token: string | undefined, cursor: string | null): Promise<string[]> {
  const ids: string[] = [];
  for (let next: string | null = cursor, first = true; first || next; first = false) {
    const p = await page(list, token, next);
    ids.push(...p.data.map((d) => d.id));
    next = p.next_cursor;
    expect(next !== null).toBe(p.has_more);
  }
  return ids;
}

/**
 * `expected` is the whole list in order (five items). An old bare-id cursor pages on; then the
 * first page's last item is deleted and its `next_cursor` still gives exactly what followed.
 */
async function pagesPastDeletion(
  list: string,
  token: string | undefined,
  expected: string[],
  remove: (id: string) => Promise<void>,
): Promise<void> {
  const first = await page(list, token);
  expect(first.data.map((d) => d.id)).toEqual(expected.slice(0, 2));
  expect(first.has_more).toBe(true);
  expect(await idsFrom(list, token, expected[1])).toEqual(expected.slice(2));
  await remove(expected[1]);
  const second = await page(list, token, first.next_cursor);
  expect(second.data.map((d) => d.id)).toEqual(expected.slice(2, 4));
  expect(await idsFrom(list, token, first.next_cursor)).toEqual(expected.slice(2));
}

/** `path` answers 400 `invalid_cursor`, telling the client to start again without one. */
async function expectInvalidCursor(path: string, token?: string): Promise<void> {
  const res = await api(path, { token });
  const body = (await res.json()) as { error: { code: string; message: string } };
  expect([res.status, body.error?.code], path).toEqual([400, "invalid_cursor"]);
  expect(body.error.message).toMatch(/without cursor/);
}

/** A job of the default workspace with five skipped runs in its ledger, newest first. */
async function jobWithRuns(): Promise<{ id: string; runs: string[] }> {
  const { id } = await createJob(job);
  const runs = await runInDurableObject(stubOf(id), (obj: JobObject) => {
    const ledger = (obj as unknown as { ledger: JobLedger }).ledger;
    const now = Date.now();
    return [1, 2, 3, 4, 5].map(
      (i) =>
        ledger.claim({
          key: `manual:${i}`,
          trigger: "manual",
          scheduledAt: now,
          missed: 0,
          status: "skipped",
          now,
        })!.id,
    );
  });
  return { id, runs: runs.reverse() };
}

/** A webhook endpoint of the default workspace with five deliveries in its log (never sent), newest first. */
async function hookWithDeliveries(): Promise<{ id: string; deliveries: string[] }> {
  const res = await api("/v1/webhooks", {
    method: "POST",
    json: { url: `${pageUrl()}/receiver/list-cursors`, events: ["run.succeeded"] },
  });
  const { id } = (await res.json()) as { id: string };
  const event = { type: "run.succeeded", timestamp: new Date().toISOString(), data: {} } as WebhookEvent;
  const deliveries = await runInDurableObject(webhooksStub(env, "default"), (obj: WebhookObject) => {
    const log = (obj as unknown as { log: DeliveryLog }).log;
    return [1, 2, 3, 4, 5].map(() => log.add(id, event, Date.now()));
  });
  return { id, deliveries: deliveries.reverse() };
}

describe("list cursors", () => {
  it("conversations: a cursor outlives its item, and an old bare-id cursor still pages", async () => {
    const { key } = await newWorkspaceKey("cursors-conversations");
    const made: { id: string; created_at: number }[] = [];
    for (let i = 0; i < 5; i++)
      made.push(
        (await (await api("/v1/conversations", { method: "POST", json: {}, token: key })).json()) as never,
      );
    // Newest first; the same millisecond in descending id order.
    const expected = made
      .sort((a, b) => b.created_at - a.created_at || (a.id < b.id ? 1 : -1))
      .map((c) => c.id);
    await pagesPastDeletion("/v1/conversations", key, expected, async (id) => {
      expect((await api(`/v1/conversations/${id}`, { method: "DELETE", token: key })).status).toBe(200);
    });
  });

  it("jobs: a cursor outlives its item, and an old bare-id cursor still pages", async () => {
    const { key } = await newWorkspaceKey("cursors-jobs");
    const made = [];
    for (let i = 0; i < 5; i++) made.push(await createJob(job, key));
    // Oldest first; the same millisecond in ascending id order.
    const expected = made
      .sort((a, b) => a.created_at - b.created_at || (a.id < b.id ? -1 : 1))
      .map((j) => j.id);
    await pagesPastDeletion("/v1/jobs", key, expected, async (id) => {
      expect((await api(`/v1/jobs/${id}`, { method: "DELETE", token: key })).status).toBe(200);
    });
  });

  it("job runs: a cursor outlives its run, and an old bare-id cursor still pages", async () => {
    const { id, runs } = await jobWithRuns();
    await pagesPastDeletion(`/v1/jobs/${id}/runs`, undefined, runs, async (run) => {
      await runInDurableObject(stubOf(id), (_obj: JobObject, state) => {
        state.storage.sql.exec("DELETE FROM job_runs WHERE id = ?", run);
      });
    });
  });

  it("webhook deliveries: a cursor outlives its delivery (pruned), and an old bare-id cursor still pages", async () => {
    const { id, deliveries } = await hookWithDeliveries();
    await pagesPastDeletion(`/v1/webhooks/${id}/deliveries`, undefined, deliveries, async (delivery) => {
      await runInDurableObject(webhooksStub(env, "default"), (_obj: WebhookObject, state) => {
        state.storage.sql.exec("DELETE FROM deliveries WHERE id = ?", delivery);
      });
    });
  });

  it("refuses a cursor the list did not give with 400 invalid_cursor, never an empty last page", async () => {
    const { id: jobId, runs } = await jobWithRuns();
    const { id: hookId } = await hookWithDeliveries();
    const lists: [string, string][] = [
      ["/v1/conversations", "conv_doesnotexist0"],
      ["/v1/jobs", "job_doesnotexist00"],
      [`/v1/jobs/${jobId}/runs`, "jrun_doesnotexist"],
      [`/v1/webhooks/${hookId}/deliveries`, "msg_doesnotexist"],
    ];
    const malformed = [
      "abc.def",
      "12.",
      ".conv_x",
      "1.2.3",
      "-5.conv_x",
      "a b",
      "99999999999999999.x",
      "x".repeat(201),
    ];
    for (const [list, unknownId] of lists)
      for (const cursor of ["abc", unknownId, ...malformed])
        await expectInvalidCursor(`${list}?limit=2&cursor=${encodeURIComponent(cursor)}`);
    // A run's id is not a cursor of another job's ledger.
    const other = await createJob(job);
    await expectInvalidCursor(`/v1/jobs/${other.id}/runs?cursor=${runs[0]}`);
    const doc = (await (await api("/openapi.json")).json()) as {
      paths: Record<string, { get: { parameters: { name: string; schema: { pattern?: string } }[] } }>;
    };
    const cursorParam = doc.paths["/v1/jobs"].get.parameters.find((p) => p.name === "cursor");
    expect(cursorParam?.schema.pattern).toBeTruthy();
  });
});
