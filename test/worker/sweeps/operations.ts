/**
 * The operations of `/openapi.json` as the security sweeps drive them: each with its path
 * parameters, the `$ref` name of its JSON body and a valid body for it. A body schema with no
 * valid body here fails the sweeps, so a new route's body is added on purpose, never skipped.
 */
import { api } from "../helpers";

export interface Operation {
  method: string;
  /** The path template, e.g. `/v1/conversations/{id}`. */
  template: string;
  /** Its path parameters, in order. */
  params: string[];
  /** The name of its JSON body's schema, or null. */
  bodyRef: string | null;
}

interface RawOperation {
  parameters?: { name: string; in: string }[];
  requestBody?: { content: Record<string, { schema: { $ref?: string } }> };
}

/** Every operation of the API reference. */
export async function operations(): Promise<Operation[]> {
  const ref = (await (await api("/openapi.json", { token: null })).json()) as {
    paths: Record<string, Record<string, RawOperation>>;
  };
  return Object.entries(ref.paths).flatMap(([template, methods]) =>
    Object.entries(methods).map(([method, op]) => ({
      method: method.toUpperCase(),
      template,
      params: (op.parameters ?? []).filter((p) => p.in === "path").map((p) => p.name),
      bodyRef: op.requestBody?.content["application/json"]?.schema.$ref?.split("/").pop() ?? null,
    })),
  );
}

/** A valid body of each request schema: the sweeps must get past validation to the lookup. */
export const VALID_BODIES: Record<string, unknown> = {
  CreateWorkspace: { name: "sweep" },
  CreateKey: { name: "sweep" },
  CreateConversation: { title: "sweep" },
  UpdateConversation: { title: "renamed by the sweep" },
  SendMessage: { content: "hello", stream: false },
  Answer: { question_id: "q_sweep", answer: "yes" },
  TakeoverDoneBody: { note: "done" },
  ToolCall: { arguments: {} },
  ApprovalDecision: { decision: "approve" },
  RunAgentInput: {
    threadId: "thread-sweep",
    runId: "run-sweep",
    messages: [{ id: "m1", role: "user", content: "hi" }],
    tools: [],
    context: [],
    state: {},
    forwardedProps: {},
  },
  HttpToolSpec: { name: "sweep_tool", description: "Sweep.", url: "https://example.com/hook" },
  UpdateHttpTool: { description: "changed by the sweep" },
  SettingsUpdate: {},
  PutSecret: { value: "sweep-value" },
  BrowserInput: { type: "key", key: "Enter" },
  CreateBrowserProfile: { name: "sweep-profile" },
  CreateJob: { name: "Sweep", prompt: "Go.", schedule: "0 3 * * *" },
  UpdateJob: { name: "changed by the sweep" },
  UpdateKey: { name: "changed by the sweep" },
  CreateWebhook: { url: "https://example.com/hook", events: ["run.succeeded"] },
  CreateMcpServer: { name: "sweep", url: "https://example.com/mcp" },
  UpdateMcpServer: { name: "changed-by-sweep" },
};

/** The request of one operation: its path filled by `fill`, its valid body (an error when none is known). */
export function requestOf(op: Operation, fill: (param: string, op: Operation) => string) {
  let path = op.template;
  for (const p of op.params) path = path.replace(`{${p}}`, fill(p, op));
  if (op.bodyRef && !(op.bodyRef in VALID_BODIES))
    throw new Error(
      `No valid body for ${op.bodyRef} (${op.method} ${op.template}): add one to VALID_BODIES.`,
    );
  const json = op.bodyRef ? VALID_BODIES[op.bodyRef] : undefined;
  // PUT /v1/files/{path} takes the file's bytes, not JSON.
  const body = op.method === "PUT" && op.template.startsWith("/v1/files/") ? "swept bytes" : undefined;
  return { path, method: op.method, json, body };
}

/** Reads a response's text (an event stream is cancelled, not read). */
export async function textOf(res: Response): Promise<string> {
  if (res.headers.get("content-type")?.includes("event-stream")) {
    await res.body?.cancel();
    return "";
  }
  return res.text();
}

/** Whether a body is the API's one error shape with this code. */
export const isError = (text: string, code: string) =>
  text.startsWith(`{"error":{"code":"${code}","message":"`);
