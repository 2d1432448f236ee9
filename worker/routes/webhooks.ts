/** Run webhooks: register endpoints for run, question and job events; list, delete, read the delivery log. */
import { createRoute, z } from "@hono/zod-openapi";
import { webhooksStub } from "../../durable-objects/webhook/webhook-events";
import type { CursorPage } from "../../schemas/page";
import {
  CreatedWebhook,
  CreateWebhook,
  WebhookDeliveryList,
  type WebhookDeliveryView,
  WebhookList,
} from "../../schemas/webhooks";
import { createApp } from "../app-factory";
import { ApiError, unwrap } from "../errors";
import { commonErrors, deletedResponse, json, jsonBody, KeysetPageQuery } from "./route-helpers";

const IdParam = z.object({
  id: z
    .string()
    .regex(/^wh_[A-Za-z0-9]{1,40}$/)
    .openapi({ param: { name: "id", in: "path" }, example: "wh_3f2a…" }),
});
const app = createApp();

app.openapi(
  createRoute({
    method: "post",
    path: "/webhooks",
    summary: "Register a webhook endpoint (its secret is shown once)",
    description:
      "Events: `run.succeeded`, `run.failed`, `run.cancelled`, `question.asked`, `approval.requested`, `takeover.requested`, `job.run.succeeded`, `job.run.failed`. Each delivery is a JSON `{type, timestamp, data}` signed in the Standard Webhooks format with the endpoint's `whsec_…` secret, retried with exponential backoff (6 attempts). URLs to private addresses are refused.",
    tags: ["Webhooks"],
    request: { body: jsonBody(CreateWebhook) },
    responses: { 201: json(CreatedWebhook, "Registered"), ...commonErrors },
  }),
  async (c) => {
    const stub = webhooksStub(c.env, c.get("principal").workspaceId);
    return c.json(unwrap(await stub.create(c.req.valid("json"))) as CreatedWebhook, 201);
  },
);

app.openapi(
  createRoute({
    method: "get",
    path: "/webhooks",
    summary: "List the webhook endpoints (no secrets)",
    tags: ["Webhooks"],
    responses: { 200: json(WebhookList, "The endpoints"), ...commonErrors },
  }),
  async (c) => c.json({ data: await webhooksStub(c.env, c.get("principal").workspaceId).list() }, 200),
);

app.openapi(
  createRoute({
    method: "delete",
    path: "/webhooks/{id}",
    summary: "Delete a webhook endpoint and its delivery log",
    tags: ["Webhooks"],
    request: { params: IdParam },
    responses: {
      200: deletedResponse("id"),
      ...commonErrors,
    },
  }),
  async (c) => {
    const { id } = c.req.valid("param");
    if (!(await webhooksStub(c.env, c.get("principal").workspaceId).remove(id)))
      throw new ApiError(404, "not_found", `No webhook ${id} in this workspace.`);
    return c.json({ id, deleted: true as const }, 200);
  },
);

app.openapi(
  createRoute({
    method: "get",
    path: "/webhooks/{id}/deliveries",
    summary: "The endpoint's deliveries, newest first, each with every attempt",
    tags: ["Webhooks"],
    request: { params: IdParam, query: KeysetPageQuery },
    responses: { 200: json(WebhookDeliveryList, "The delivery log"), ...commonErrors },
  }),
  async (c) => {
    const { id } = c.req.valid("param");
    const { limit, cursor } = c.req.valid("query");
    const stub = webhooksStub(c.env, c.get("principal").workspaceId);
    const page = unwrap(await stub.deliveries(id, limit, cursor ?? null));
    return c.json(page as CursorPage<WebhookDeliveryView>, 200);
  },
);

export default app;
