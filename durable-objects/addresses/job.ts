/** How a scheduled job's object (`JOBS`) is named and reached: `<workspace>/<job>`. */
import { JOB_ID, scopedName } from "./ids";

/** The Durable Object of a job, named inside its workspace. */
export function jobStub(env: Env, workspaceId: string, jobId: string): ReturnType<Env["JOBS"]["get"]> {
  const ns = env.JOBS;
  return ns.get(ns.idFromName(scopedName(workspaceId, "job", JOB_ID, jobId)));
}
