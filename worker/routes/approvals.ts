/** Deciding a tool call that waits for a person's approval. */
import { createRoute, z } from "@hono/zod-openapi";
import { ErrorBody } from "../../schemas/api";
import { ApprovalDecisionBody, ApprovalResolved } from "../../schemas/approvals";
import { createApp } from "../app-factory";
import { unwrap } from "../errors";
import { existingConversation } from "../stubs";
import { ownerDecides } from "../widget-access";
import { IdParam } from "./conversations";
import { commonErrors, json, jsonBody } from "./route-helpers";

const app = createApp();

app.openapi(
  createRoute({
    method: "post",
    path: "/conversations/{id}/approvals/{approval_id}",
    summary: "Approve or deny a tool call waiting for approval",
    description:
      "Decided with a secret key (the dashboard or the API), never with a widget visitor's token (403). `approve` runs the call (with `arguments` instead of the model's when given, validated like the model's); `deny` gives the model `{ok: false, error: {code: \"denied\", message: <reason>}}` and the run goes on. An `approval_resolved` CUSTOM event follows.",
    tags: ["Runs"],
    request: {
      params: IdParam.extend({
        approval_id: z
          .string()
          .openapi({ param: { name: "approval_id", in: "path" }, example: "appr_1a2b3c" }),
      }),
      body: jsonBody(ApprovalDecisionBody),
    },
    responses: {
      200: json(ApprovalResolved, "The decision, as the approval_resolved event carries it"),
      409: json(ErrorBody, "The approval was already decided"),
      ...commonErrors,
    },
  }),
  async (c) => {
    const { id, approval_id } = c.req.valid("param");
    if (c.get("principal").publishable) throw ownerDecides();
    const stub = await existingConversation(c.env, c.get("principal").workspaceId, id);
    return c.json(unwrap(await stub.decideApproval(approval_id, c.req.valid("json"))), 200);
  },
);

export default app;
