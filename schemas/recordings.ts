/**
 * Browser session recordings: one zod schema per concept, shared by the recorder, the
 * recordings API and the OpenAPI document. Events are rrweb's, as it emits them.
 */
import { z } from "@hono/zod-openapi";

/** A recording of one tab. */
export const RecordingInfo = z
  .object({
    id: z.string().describe("The recording's id (`rec_…`)."),
    tab_id: z.number().int().describe("The tab it recorded."),
    url: z.string().describe("The tab's URL when recording started."),
    started_at: z.number().describe("Epoch milliseconds."),
    ended_at: z.number().describe("Epoch milliseconds of the newest stored event batch."),
    size: z.number().int().describe("Bytes of events stored."),
    events: z.number().int().describe("rrweb events stored."),
    chunks: z.number().int().describe("Pages of events (read with `cursor`)."),
    truncated: z
      .boolean()
      .describe("True when the recording passed RECORDING_MAX_BYTES and stopped taking events."),
    expires_at: z.number().describe("When retention (RECORDING_TTL_DAYS) deletes it, epoch milliseconds."),
  })
  .openapi("RecordingInfo");
export type RecordingInfo = z.infer<typeof RecordingInfo>;

/** A page of a conversation's recordings, in the order they began. */
export const RecordingList = z
  .object({
    data: z.array(RecordingInfo),
    has_more: z.boolean(),
    next_cursor: z.string().nullable(),
  })
  .openapi("RecordingList");

/** One page of a recording's events, in order; follow `next_cursor` for the rest. */
export const RecordingEvents = z
  .object({
    recording: RecordingInfo,
    events: z.array(z.unknown()).describe("rrweb events (type, data, timestamp)."),
    has_more: z.boolean(),
    next_cursor: z.string().nullable(),
  })
  .openapi("RecordingEvents");

/** `recording` on a conversation, a job or the workspace's defaults. */
export const RecordingSetting = z
  .boolean()
  .describe(
    "Record every tab the agent or a person drives as rrweb events (inputs masked), kept RECORDING_TTL_DAYS.",
  );
