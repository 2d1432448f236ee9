/**
 * One workspace's run webhooks = one Durable Object: its endpoints (secrets sealed), the
 * delivery log and ONE alarm at the next due attempt. Events are queued durably first and sent
 * from the alarm, each attempt signed in the Standard Webhooks format and logged, with backoff.
 */
import { DurableObject } from "cloudflare:workers";
import { type CursorPage, cursorPage } from "../../schemas/page";
import type {
  CreatedWebhook,
  CreateWebhook,
  Webhook,
  WebhookDeliveryView,
  WebhookEvent,
} from "../../schemas/webhooks";
import { readEnv } from "../engine/config/env";
import { fail, ok, type RpcResult } from "../engine/rpc-result";
import { secretKeyring } from "../engine/secret-box";
import { migrate } from "../engine/store/migrations";
import {
  postWebhook,
  retryDelay,
  WEBHOOK_MAX_ATTEMPTS,
  webhookUrlProblem,
} from "../engine/webhook-delivery/delivery";
import { newWebhookSecret, standardHeaders } from "../engine/webhook-delivery/signing";
import { DeliveryLog, type DueDelivery } from "./delivery-log";
import { EndpointStore, MAX_ENDPOINTS } from "./endpoint-store";
import { WEBHOOK_MIGRATIONS } from "./webhook-schema";

/** Deliveries attempted at once per alarm. */
const BATCH = 20;

/** The Durable Object of one workspace's webhooks. */
export class WebhookObject extends DurableObject<Env> {
  private readonly endpoints: EndpointStore;
  private readonly log: DeliveryLog;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    migrate(ctx.storage, WEBHOOK_MIGRATIONS);
    this.endpoints = new EndpointStore(ctx.storage.sql, () => secretKeyring(env));
    this.log = new DeliveryLog(ctx.storage.sql);
  }

  /** Registers an endpoint; its secret is in the answer only. */
  async create(body: CreateWebhook): Promise<RpcResult<CreatedWebhook>> {
    const problem = webhookUrlProblem(body.url, this.allowPrivate(), "url");
    if (problem) return fail(400, "invalid_webhook_url", problem);
    if (this.endpoints.count() >= MAX_ENDPOINTS)
      return fail(400, "webhook_limit", `A workspace has at most ${MAX_ENDPOINTS} webhook endpoints.`);
    const hook: Webhook = {
      id: `wh_${crypto.randomUUID().replaceAll("-", "").slice(0, 20)}`,
      object: "webhook",
      url: body.url,
      events: [...new Set(body.events)],
      created_at: Date.now(),
    };
    const secret = newWebhookSecret();
    await this.endpoints.add(hook, secret);
    return ok({ ...hook, secret });
  }

  list(): Webhook[] {
    return this.endpoints.list();
  }

  /** Removes an endpoint and its delivery log. */
  remove(id: string): boolean {
    if (!this.endpoints.remove(id)) return false;
    this.log.removeEndpoint(id);
    return true;
  }

  /** An endpoint's deliveries with every attempt, newest first. */
  deliveries(id: string, limit: number, cursor: string | null): RpcResult<CursorPage<WebhookDeliveryView>> {
    if (!this.endpoints.get(id)) return fail(404, "not_found", `No webhook ${id} in this workspace.`);
    const page = this.log.list(id, limit, cursor);
    if (!page.ok) return page;
    return ok(cursorPage(page.value.data, page.value.hasMore, page.value.lastCursor));
  }

  /** Queues an event for every endpoint subscribed to it; returns how many. */
  async dispatch(event: WebhookEvent): Promise<number> {
    const targets = this.endpoints.subscribed(event.type);
    const now = Date.now();
    for (const t of targets) this.log.add(t.id, event, now);
    if (targets.length) await this.arm();
    return targets.length;
  }

  /** Sends what is due, then sleeps until the next due attempt. */
  async alarm(): Promise<void> {
    for (let due = this.log.due(Date.now(), BATCH); due.length; due = this.log.due(Date.now(), BATCH))
      await Promise.all(due.map((d) => this.attempt(d)));
    await this.arm();
  }

  private async attempt(d: DueDelivery): Promise<void> {
    const endpoint = this.endpoints.get(d.endpointId);
    const secret = endpoint ? await this.endpoints.secret(d.endpointId) : null;
    const attempt = d.attempts + 1;
    const at = Date.now();
    if (!endpoint || !secret) {
      this.log.recordAttempt(
        d.id,
        { attempt, at, status_code: null, error: "The endpoint was deleted.", duration_ms: 0 },
        { status: "failed", nextAttemptAt: null },
      );
      return;
    }
    const problem = webhookUrlProblem(endpoint.url, this.allowPrivate(), "url");
    const result = problem
      ? { ok: false, status: null, error: problem, durationMs: 0 }
      : await postWebhook(endpoint.url, d.body, await standardHeaders(secret, d.id, d.body));
    const giveUp = problem !== null || attempt >= WEBHOOK_MAX_ATTEMPTS;
    this.log.recordAttempt(
      d.id,
      { attempt, at, status_code: result.status, error: result.error, duration_ms: result.durationMs },
      result.ok
        ? { status: "delivered", nextAttemptAt: null }
        : giveUp
          ? { status: "failed", nextAttemptAt: null }
          : { status: "pending", nextAttemptAt: Date.now() + retryDelay(attempt, this.retryBaseMs()) },
    );
  }

  private async arm(): Promise<void> {
    const next = this.log.nextDue();
    if (next === null) await this.ctx.storage.deleteAlarm();
    else await this.ctx.storage.setAlarm(Math.max(next, Date.now()));
  }

  private allowPrivate(): boolean {
    return readEnv(this.env).ALLOW_PRIVATE_NETWORK;
  }

  private retryBaseMs(): number {
    return readEnv(this.env).WEBHOOK_RETRY_BASE_MS;
  }
}
