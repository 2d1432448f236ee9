/**
 * A conversation's browser recordings (rrweb events in R2): list, read page by page, delete.
 * Owner keys only (widget visitors have no recording routes); scoped to the workspace like files.
 */
import { createRoute, z } from "@hono/zod-openapi";
import { recordingConfig } from "../../durable-objects/engine/config/recording-config";
import { RecordingStore } from "../../durable-objects/engine/recording/recording-store";
import { RecordingEvents, RecordingList } from "../../schemas/recordings";
import { createApp } from "../app-factory";
import { ApiError } from "../errors";
import { existingConversation } from "../stubs";
import { IdParam } from "./conversations";
import { commonErrors, deletedResponse, json, PageQuery } from "./route-helpers";

const RecordingParams = IdParam.extend({
  recording_id: z
    .string()
    .regex(/^rec_[A-Za-z0-9_-]{1,64}$/, "not a recording id")
    .openapi({ param: { name: "recording_id", in: "path" }, example: "rec_m4x2k1_ab12cd34" }),
});
const EventsQuery = z.object({
  cursor: z
    .string()
    .regex(/^\d{1,6}$/, "not a cursor of this recording")
    .optional(),
});

const app = createApp();

/** The recordings of a conversation that exists in the caller's workspace. */
async function storeOf(env: Env, workspaceId: string, conversationId: string): Promise<RecordingStore> {
  await existingConversation(env, workspaceId, conversationId);
  return new RecordingStore(env.FILES, workspaceId, conversationId, recordingConfig(env).ttlMs);
}

app.openapi(
  createRoute({
    method: "get",
    path: "/conversations/{id}/recordings",
    summary: "List the conversation's browser recordings",
    description: "One recording per tab the agent or a person drove while `recording` was on, oldest first.",
    tags: ["Browser"],
    request: { params: IdParam, query: PageQuery },
    responses: { 200: json(RecordingList, "A page of recordings"), ...commonErrors },
  }),
  async (c) => {
    const { id } = c.req.valid("param");
    const { limit, cursor } = c.req.valid("query");
    const store = await storeOf(c.env, c.get("principal").workspaceId, id);
    const page = await store.list(limit, cursor ?? null);
    return c.json(
      { data: page.data, has_more: page.next_cursor !== null, next_cursor: page.next_cursor },
      200,
    );
  },
);

app.openapi(
  createRoute({
    method: "get",
    path: "/conversations/{id}/recordings/{recording_id}",
    summary: "A page of a recording's rrweb events",
    description:
      "Events in order, one stored chunk (at most ~256 KiB) per page; pass `next_cursor` as `cursor` until `has_more` is false. Feed them to rrweb's Replayer.",
    tags: ["Browser"],
    request: { params: RecordingParams, query: EventsQuery },
    responses: { 200: json(RecordingEvents, "Events"), ...commonErrors },
  }),
  async (c) => {
    const { id, recording_id } = c.req.valid("param");
    const n = Number(c.req.valid("query").cursor ?? "0");
    const store = await storeOf(c.env, c.get("principal").workspaceId, id);
    const info = await store.info(recording_id);
    if (!info) throw new ApiError(404, "not_found", `No recording ${recording_id} in this conversation.`);
    if (n > 0 && n >= info.chunks)
      throw new ApiError(400, "invalid_cursor", `This recording has ${info.chunks} pages.`);
    const events = (await store.chunk(recording_id, n)) ?? [];
    const more = n + 1 < info.chunks;
    return c.json({ recording: info, events, has_more: more, next_cursor: more ? String(n + 1) : null }, 200);
  },
);

app.openapi(
  createRoute({
    method: "delete",
    path: "/conversations/{id}/recordings/{recording_id}",
    summary: "Delete a recording",
    tags: ["Browser"],
    request: { params: RecordingParams },
    responses: { 200: deletedResponse("id"), ...commonErrors },
  }),
  async (c) => {
    const { id, recording_id } = c.req.valid("param");
    const store = await storeOf(c.env, c.get("principal").workspaceId, id);
    if (!(await store.delete(recording_id)))
      throw new ApiError(404, "not_found", `No recording ${recording_id} in this conversation.`);
    return c.json({ id: recording_id, deleted: true as const }, 200);
  },
);

export default app;
