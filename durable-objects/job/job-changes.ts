/**
 * How creating and updating a job changes its stored record: a new job counts occurrences from its
 * creation; a new schedule or re-enabling counts them from now on; a webhook URL moved to another
 * origin gets a new signing secret.
 */
import { sameOrigin } from "../../schemas/credentials";
import type { JobSettings } from "../../schemas/jobs";
import { newWebhookSecret } from "../engine/webhook-delivery/signing";
import type { JobRecord } from "./job-record";

/** The record of a new job, created at `now`. */
export function createdRecord(o: {
  id: string;
  workspaceId: string;
  settings: JobSettings;
  secret: string;
  origin?: string;
  now: number;
}): JobRecord {
  return {
    id: o.id,
    workspace_id: o.workspaceId,
    settings: o.settings,
    webhook_secret: o.secret,
    created_at: o.now,
    updated_at: o.now,
    cursor: o.now,
    ...(o.origin ? { origin: o.origin } : {}),
    version: 1,
  };
}

/**
 * The record with new settings, updated at `now`; `moved`: the webhook URL went to another origin,
 * so the record has a new signing secret (the old one was shared with the old receiver only).
 */
export function updatedRecord(
  record: JobRecord,
  settings: JobSettings,
  now: number,
): { record: JobRecord; moved: boolean } {
  const old = record.settings;
  const restart =
    settings.schedule !== old.schedule ||
    settings.timezone !== old.timezone ||
    (settings.enabled && !old.enabled);
  const moved =
    old.webhook_url !== null &&
    settings.webhook_url !== null &&
    !sameOrigin(old.webhook_url, settings.webhook_url);
  const webhook_secret = moved ? newWebhookSecret() : record.webhook_secret;
  return {
    record: { ...record, settings, webhook_secret, updated_at: now, cursor: restart ? now : record.cursor },
    moved,
  };
}
