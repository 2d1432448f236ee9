/**
 * Which ids name a Durable Object. Every object of a workspace is named inside it
 * (`<workspace>/<id>`), so a key of one workspace can never reach another's objects; an id that
 * does not match its pattern names no object at all (`InvalidObjectId`, a 404 at the API).
 */
import { CirrusError } from "../engine/errors";

/** An id that names no object of its kind. */
export class InvalidObjectId extends CirrusError {
  constructor(
    readonly kind: string,
    id: string,
  ) {
    super("not_found", `No ${kind} ${JSON.stringify(id.slice(0, 120))}.`);
  }
}

/** Workspace ids: `default` or letters, digits, dashes and underscores (new ones are `ws-…`). */
export const WORKSPACE_ID = /^[A-Za-z0-9_-]{1,64}$/;
/** Conversation ids (ours are `conv_…`; AG-UI clients bring their own). */
export const CONVERSATION_ID = /^[A-Za-z0-9_-]{1,100}$/;
/** Scheduled job ids. */
export const JOB_ID = /^job_[A-Za-z0-9_-]{1,64}$/;
/** Sessions of Cirrus's own MCP endpoint. */
export const MCP_SESSION_ID = /^mcps_[A-Za-z0-9_-]{16,64}$/;

/** `id` when it matches `pattern`; otherwise throws InvalidObjectId naming `kind`. */
export function checkedId(kind: string, pattern: RegExp, id: string): string {
  if (!pattern.test(id)) throw new InvalidObjectId(kind, id);
  return id;
}

/** The name of an object that lives inside a workspace. */
export function scopedName(workspaceId: string, kind: string, pattern: RegExp, id: string): string {
  return `${checkedId("workspace", WORKSPACE_ID, workspaceId)}/${checkedId(kind, pattern, id)}`;
}
