/**
 * What ties a conversation to the job run it serves: stored by the conversation at creation,
 * it makes the conversation's runs unattended, applies the token budget and reports the end
 * of each run back to the job.
 */

import { jobStub } from "../addresses/job";

/** The job run a conversation was created for. */
export interface JobLink {
  job_id: string;
  job_run_id: string;
  /** Tokens (input + output) a run may use; null for no budget. */
  max_tokens: number | null;
}

/** Told to the model of every job run: nobody is there to answer questions. */
export const UNATTENDED_NOTE =
  "This is an unattended scheduled run: nobody can answer questions (ask_user returns no answer). Work with what you can find, then call finish with the complete result.";

/** Tells the job that a run of its conversation ended (the job's alarm polls if this is lost). */
export async function notifyJobRunEnded(env: Env, workspaceId: string, link: JobLink): Promise<void> {
  try {
    await jobStub(env, workspaceId, link.job_id).runEnded(link.job_run_id);
  } catch (err) {
    console.warn("job run-end notice failed; the job's alarm will poll", (err as Error).message);
  }
}
