/**
 * AG-UI endpoint: takes a RunAgentInput (threadId = conversation id) and answers with the
 * run's AG-UI event stream, so AG-UI clients such as HttpAgent work unchanged.
 */
import { contentToText } from "@ag-ui/core";
import { RunAgentInputSchema } from "@ag-ui/core/schemas";
import { createRoute, z } from "@hono/zod-openapi";
import { createApp } from "../app-factory";
import { ApiError, unwrap } from "../errors";
import { CONVERSATION_ID, conversationStub, workspaceStub } from "../stubs";
import { commonErrors, jsonBody, sse } from "./route-helpers";

const app = createApp();

const AgUiInput = z
  .object({
    threadId: z.string().regex(CONVERSATION_ID).describe("The conversation id; created on first use."),
    runId: z.string().regex(/^[A-Za-z0-9_-]{1,100}$/),
    messages: z.array(z.looseObject({ role: z.string() })),
  })
  .loose()
  .openapi("RunAgentInput");

app.openapi(
  createRoute({
    method: "post",
    path: "/agui",
    summary: "AG-UI: run the agent on a thread and stream AG-UI events",
    tags: ["AG-UI"],
    request: { body: jsonBody(AgUiInput) },
    responses: { 200: sse("AG-UI events of this run"), ...commonErrors },
  }),
  async (c) => {
    const parsed = RunAgentInputSchema.safeParse(c.req.valid("json"));
    if (!parsed.success)
      throw new ApiError(400, "invalid_request", `Invalid RunAgentInput: ${z.prettifyError(parsed.error)}`);
    const input = parsed.data;
    const lastUser = [...input.messages].reverse().find((m) => m.role === "user");
    const content = lastUser && "content" in lastUser ? contentToText(lastUser.content as never) : "";
    if (!content)
      throw new ApiError(400, "invalid_request", "RunAgentInput.messages needs a user message with text.");
    const { workspaceId } = c.get("principal");
    const stub = conversationStub(c.env, workspaceId, input.threadId);
    if (!(await stub.describe())) {
      const conv = (await stub.create(
        input.threadId,
        workspaceId,
        {},
        { origin: new URL(c.req.url).origin, channel: "agui" },
      )) as {
        created_at: number;
      };
      await workspaceStub(c.env, workspaceId).addConversation(input.threadId, conv.created_at);
    }
    const { run_id } = unwrap(await stub.sendMessage(content, null, input.runId));
    return stub.fetch(`https://conversation/runs/${run_id}/events`);
  },
);

export default app;
