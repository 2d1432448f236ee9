/** Sending messages, streaming events, answering questions, cancelling and calling tools. */
import { createRoute, z } from "@hono/zod-openapi";
import type { JSONValue } from "hono/utils/types";
import {
  AnswerBody,
  ErrorBody,
  RunResult,
  SendMessage,
  ToolCallBody,
  ToolCallResult,
} from "../../schemas/api";
import { TakeoverDone, TakeoverDoneBody } from "../../schemas/browser-api";
import { createApp } from "../app-factory";
import { ApiError, unwrap } from "../errors";
import { existingConversation } from "../stubs";
import { IdParam } from "./conversations";
import { commonErrors, json, jsonBody, resumeAfter, sse } from "./route-helpers";

/** How often a non-streaming call re-attaches after the object restarted under it. */
const WAIT_REATTACH_ATTEMPTS = 5;

const app = createApp();

app.openapi(
  createRoute({
    method: "post",
    path: "/conversations/{id}/messages",
    summary: "Send a message; stream the run's events or wait for its result",
    description:
      "With `stream: true` (default) answers with this run's events as SSE, ending after RUN_FINISHED or RUN_ERROR. With `stream: false` waits and returns the result. A message sent during a run is queued, or with `steer: true` joins that run before its next model turn (as a user TEXT_MESSAGE of that run; the answer then streams that run from this point on, with `x-steered: true`; its verify_citations, max_revisions, success_criteria and grader_model are then ignored). The same `idempotency_key` twice starts one run. When the run succeeds, its result's citations are checked against the pages it read (`verify_citations`) and graded against `success_criteria`; see docs/research.md.",
    tags: ["Runs"],
    request: {
      params: IdParam,
      body: jsonBody(SendMessage),
    },
    responses: {
      // Both bodies: the JSON result (stream: false) and the SSE stream (stream: true).
      200: {
        description: "The run's events (stream: true), or the finished run (stream: false)",
        content: { ...json(RunResult, "").content, ...sse("").content },
      },
      ...commonErrors,
    },
  }),
  async (c) => {
    const { id } = c.req.valid("param");
    const body = c.req.valid("json");
    const stub = await existingConversation(c.env, c.get("principal").workspaceId, id);
    const { verify_citations, max_revisions, success_criteria, grader_model } = body;
    const review = { verify_citations, max_revisions, success_criteria, grader_model };
    const { run_id, steered, after_seq } = unwrap(
      await stub.sendMessage(body.content, body.idempotency_key ?? null, undefined, body.steer, review),
    );
    if (body.stream) {
      // A steered message joins a run already under way: its stream goes on from now.
      const res = await stub.fetch(`https://conversation/runs/${run_id}/events?after=${after_seq}`);
      const headers = { ...Object.fromEntries(res.headers), "x-run-id": run_id };
      return new Response(res.body, { headers: steered ? { ...headers, "x-steered": "true" } : headers });
    }
    for (let attempt = 1; ; attempt++) {
      try {
        return c.json(unwrap(await stub.waitForRun(run_id)), 200);
      } catch (err) {
        if (err instanceof ApiError || attempt >= WAIT_REATTACH_ATTEMPTS) throw err;
      }
    }
  },
);

app.openapi(
  createRoute({
    method: "get",
    path: "/conversations/{id}/events",
    summary: "Every event of the conversation as SSE; resume with Last-Event-ID or ?after=",
    description:
      "AG-UI events, plus CUSTOM events named `ask_user`, `ask_user_resolved`, `takeover_requested`, `takeover_resolved`, `approval_requested`, `approval_resolved`, `sub_agent_event` (a sub-agent's own event, wrapped) and `notice`, whose value is a `Notice` (see the schema): e.g. `context_cleared` {cleared_results, tokens_before, tokens_after} when old tool results were cleared from the model's context, `context_compacted` when older turns were summarised.",
    tags: ["Runs"],
    request: {
      params: IdParam,
      query: z.object({
        after: z.string().regex(/^\d+$/).optional().describe("Resume after this event sequence."),
      }),
      headers: z.object({ "last-event-id": z.string().optional() }),
    },
    responses: { 200: sse("Events with `id: <seq>`, then live events and heartbeats"), ...commonErrors },
  }),
  async (c) => {
    const { id } = c.req.valid("param");
    const after = resumeAfter(c.req.header("last-event-id"), c.req.valid("query").after);
    const stub = await existingConversation(c.env, c.get("principal").workspaceId, id);
    return stub.fetch(`https://conversation/events?after=${after}`);
  },
);

app.openapi(
  createRoute({
    method: "post",
    path: "/conversations/{id}/answer",
    summary: "Answer the pending ask_user question",
    tags: ["Runs"],
    request: {
      params: IdParam,
      body: jsonBody(AnswerBody),
    },
    responses: {
      200: json(
        z.object({ question_id: z.string(), answer: z.union([z.string(), z.array(z.string())]) }),
        "Accepted",
      ),
      409: json(ErrorBody, "No such question is pending"),
      ...commonErrors,
    },
  }),
  async (c) => {
    const { id } = c.req.valid("param");
    const stub = await existingConversation(c.env, c.get("principal").workspaceId, id);
    return c.json(unwrap(await stub.answer(c.req.valid("json"))), 200);
  },
);

app.openapi(
  createRoute({
    method: "post",
    path: "/conversations/{id}/takeover/{takeover_id}/done",
    summary: "Hand the browser back after a request_takeover; the run goes on",
    description:
      "The tool returns `{status: \"done\", note, url, title}` of the tab. The browser's state is saved into the conversation's browser profile first, if it has one.",
    tags: ["Runs"],
    request: {
      params: IdParam.extend({
        takeover_id: z
          .string()
          .min(1)
          .max(200)
          .openapi({ param: { name: "takeover_id", in: "path" }, example: "call_abc" }),
      }),
      body: jsonBody(TakeoverDoneBody, false),
    },
    responses: {
      200: json(TakeoverDone, "The run resumes with this result"),
      409: json(ErrorBody, "No such take-over is pending"),
      ...commonErrors,
    },
  }),
  async (c) => {
    const { id, takeover_id } = c.req.valid("param");
    const raw = (await c.req.json().catch(() => ({}))) as unknown;
    const body = TakeoverDoneBody.safeParse(raw ?? {});
    if (!body.success)
      throw new ApiError(400, "invalid_request", `Invalid json: ${z.prettifyError(body.error)}`);
    const stub = await existingConversation(c.env, c.get("principal").workspaceId, id);
    return c.json(unwrap(await stub.takeoverDone(takeover_id, body.data.note ?? null)), 200);
  },
);

app.openapi(
  createRoute({
    method: "post",
    path: "/conversations/{id}/cancel",
    summary: "Stop the current run",
    tags: ["Runs"],
    request: { params: IdParam },
    responses: {
      200: json(z.object({ run_id: z.string().nullable(), cancelled: z.boolean() }), "Result"),
      ...commonErrors,
    },
  }),
  async (c) => {
    const { id } = c.req.valid("param");
    const stub = await existingConversation(c.env, c.get("principal").workspaceId, id);
    return c.json(unwrap(await stub.cancel()), 200);
  },
);

app.openapi(
  createRoute({
    method: "post",
    path: "/conversations/{id}/tools/{name}",
    summary: "Call one tool directly, with the same validation as a model call",
    tags: ["Runs"],
    request: {
      params: IdParam.extend({
        name: z.string().openapi({ param: { name: "name", in: "path" }, example: "create_task" }),
      }),
      body: jsonBody(ToolCallBody, false),
    },
    responses: {
      200: json(ToolCallResult, "The tool's result"),
      409: json(ErrorBody, "The tool needs a run"),
      422: json(ErrorBody, "The tool failed"),
      ...commonErrors,
    },
  }),
  async (c) => {
    const { id, name } = c.req.valid("param");
    const raw = (await c.req.json().catch(() => ({}))) as unknown;
    const parsed = ToolCallBody.safeParse(raw ?? {});
    if (!parsed.success)
      throw new ApiError(400, "invalid_request", `Invalid json: ${z.prettifyError(parsed.error)}`);
    const stub = await existingConversation(c.env, c.get("principal").workspaceId, id);
    const { result } = unwrap<{ tool: string; result: unknown }>(
      await stub.callTool(name, parsed.data.arguments),
    );
    return c.json({ tool: name, result: (result ?? null) as JSONValue }, 200);
  },
);

export default app;
