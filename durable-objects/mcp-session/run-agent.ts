/**
 * `run_agent` of Cirrus's MCP server: runs the agent in a new or an existing conversation to the
 * end, following the run's own event stream — progress notifications for the client (when it
 * asked for them with a progress token), and `ask_user` questions turned into MCP elicitation
 * when the client supports it, else answered like an unattended job run.
 */
import { workspaceStub } from "../addresses/workspace";
import { conversationStub } from "../addresses/conversation";
import type { RequestHandlerExtra } from "@modelcontextprotocol/sdk/shared/protocol.js";
import {
  type CallToolResult,
  ElicitResultSchema,
  type ServerNotification,
  type ServerRequest,
} from "@modelcontextprotocol/sdk/types.js";
import type { RunResult } from "../../schemas/api";
import type { PendingQuestion } from "../../schemas/events";
import type { ConversationObject } from "../conversation/conversation-object";
import { randomToken } from "../engine/tokens";

type Extra = RequestHandlerExtra<ServerRequest, ServerNotification>;

/** What a run needs: the workspace's objects and whether the client can answer questions. */
export interface RunAgentDeps {
  env: Env;
  workspaceId: string;
  canElicit(): boolean;
}

/** run_agent's arguments. */
export interface RunAgentArgs {
  prompt: string;
  conversation_id?: string;
  instructions?: string;
}

function conversation(env: Env, workspaceId: string, id: string): DurableObjectStub<ConversationObject> {
  return conversationStub(env, workspaceId, id) as DurableObjectStub<ConversationObject>;
}

/** A tool error result. */
export const toolError = (text: string): CallToolResult => ({
  isError: true,
  content: [{ type: "text", text }],
});

/** Runs the agent once and returns its output with {conversation_id, run_id, status, usage}. */
export async function runAgent(
  deps: RunAgentDeps,
  args: RunAgentArgs,
  extra: Extra,
): Promise<CallToolResult> {
  const { env, workspaceId } = deps;
  let id = args.conversation_id;
  if (id) {
    if (!/^[A-Za-z0-9_-]{1,100}$/.test(id) || !(await conversation(env, workspaceId, id).describe())) {
      return toolError(`No conversation ${id} in this workspace.`);
    }
  } else {
    id = `conv_${randomToken(12)}`;
    const created = (await conversation(env, workspaceId, id).create(
      id,
      workspaceId,
      {
        ...(args.instructions ? { instructions: args.instructions } : {}),
        metadata: { source: "mcp" },
      },
      { channel: "mcp" },
    )) as unknown as { created_at: number };
    await workspaceStub(env, workspaceId).addConversation(id, created.created_at);
  }
  const stub = conversation(env, workspaceId, id);
  const sent = await stub.sendMessage(args.prompt, null);
  if (!sent.ok) return toolError(sent.message);
  const runId = sent.value.run_id;
  const onAbort = () => void stub.cancel().catch(() => {});
  extra.signal.addEventListener("abort", onAbort, { once: true });
  try {
    await follow(deps, stub, runId, extra);
  } finally {
    extra.signal.removeEventListener("abort", onAbort);
  }
  const outcome = (await stub.runOutcome(runId)) as RunResult | null;
  if (!outcome) return toolError(`The run ${runId} was lost.`);
  const text =
    typeof outcome.output === "string"
      ? outcome.output
      : outcome.output === null || outcome.output === undefined
        ? (outcome.error?.message ?? "")
        : JSON.stringify(outcome.output);
  return {
    isError: outcome.status !== "succeeded",
    content: [{ type: "text", text }],
    structuredContent: { conversation_id: id, run_id: runId, status: outcome.status, usage: outcome.usage },
  };
}

/** Reads the run's event stream to its end: progress for the client, questions answered. */
async function follow(
  deps: RunAgentDeps,
  stub: DurableObjectStub<ConversationObject>,
  runId: string,
  extra: Extra,
): Promise<void> {
  const res = await stub.fetch(`https://conversation/runs/${runId}/events`);
  if (!res.body) return;
  const token = extra._meta?.progressToken;
  let progress = 0;
  const notify = async (message: string) => {
    if (token === undefined) return;
    progress++;
    await extra
      .sendNotification({
        method: "notifications/progress",
        params: { progressToken: token, progress, message },
      })
      .catch(() => {});
  };
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      buffer += value;
      for (let at = buffer.indexOf("\n\n"); at >= 0; at = buffer.indexOf("\n\n")) {
        const block = buffer.slice(0, at);
        buffer = buffer.slice(at + 2);
        const data = block
          .split("\n")
          .filter((l) => l.startsWith("data: "))
          .map((l) => l.slice(6))
          .join("\n");
        if (!data) continue;
        const event = JSON.parse(data) as {
          type: string;
          name?: string;
          value?: unknown;
          toolCallName?: string;
        };
        if (event.type === "STEP_STARTED") await notify(`model turn ${progress + 1}`);
        else if (event.type === "TOOL_CALL_START") await notify(`calling ${event.toolCallName}`);
        else if (event.type === "CUSTOM" && event.name === "ask_user") {
          await notify("asking the user");
          await answerQuestion(deps, stub, event.value as PendingQuestion, extra);
        } else if (event.type === "RUN_FINISHED" || event.type === "RUN_ERROR") return;
      }
    }
  } finally {
    reader.cancel().catch(() => {});
  }
}

/** Asks the MCP client's user (elicitation) when it can, else answers as an unattended run does. */
async function answerQuestion(
  deps: RunAgentDeps,
  stub: DurableObjectStub<ConversationObject>,
  q: PendingQuestion,
  extra: Extra,
): Promise<void> {
  if (!deps.canElicit()) {
    await stub.answerWithout(q.question_id, "unattended");
    return;
  }
  const single = q.options?.length && !q.multiple;
  try {
    const result = await extra.sendRequest(
      {
        method: "elicitation/create",
        params: {
          mode: "form",
          message: q.question,
          requestedSchema: {
            type: "object",
            properties: {
              answer: single
                ? { type: "string", title: "Answer", enum: q.options }
                : {
                    type: "string",
                    title: "Answer",
                    description: q.options?.length
                      ? `One or more of: ${q.options.join(", ")} (comma-separated)`
                      : undefined,
                  },
            },
            required: ["answer"],
          },
        },
      },
      ElicitResultSchema,
      { timeout: Math.max(1_000, q.expires_at - Date.now()) },
    );
    const answer = result.action === "accept" ? result.content?.answer : undefined;
    if (typeof answer !== "string") {
      await stub.answerWithout(q.question_id, result.action === "accept" ? "no_answer" : result.action);
      return;
    }
    const value = q.multiple
      ? answer
          .split(",")
          .map((s) => s.trim())
          .filter(Boolean)
      : answer;
    const done = await stub.answer({ question_id: q.question_id, answer: value });
    if (!done.ok) await stub.answerWithout(q.question_id, "invalid_answer");
  } catch {
    await stub.answerWithout(q.question_id, "no_answer");
  }
}
