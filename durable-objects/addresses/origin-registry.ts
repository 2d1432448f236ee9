/**
 * How an origin's widget registry (`ORIGINS`) is named and reached: one object per browser
 * origin (`scheme://host[:port]`), shared by every workspace whose widget keys list it.
 */
import { InvalidObjectId } from "./ids";

/** The registry object of one origin (a serialised origin, as `new URL(…).origin` writes it). */
export function originRegistryStub(env: Env, origin: string): ReturnType<Env["ORIGINS"]["get"]> {
  if (!/^https?:\/\/[^/\s]{1,255}$/.test(origin)) throw new InvalidObjectId("origin", origin);
  const ns = env.ORIGINS;
  return ns.get(ns.idFromName(origin));
}
