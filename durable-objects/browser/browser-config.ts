/** The browser's settings from the Worker's environment and the conversation. */
import { type BrowserSessionOptions, DEFAULT_BROWSER_IDLE_MS } from "./browser-session";

/** Reads BROWSER_IDLE_MS and ALLOW_PRIVATE_NETWORK; `allowedDomains` comes from the conversation. */
export function browserConfig(
  env: Record<string, unknown>,
  allowedDomains: string[] | undefined,
): BrowserSessionOptions {
  const idle = Number(env.BROWSER_IDLE_MS);
  return {
    idleMs: Number.isFinite(idle) && idle > 0 ? idle : DEFAULT_BROWSER_IDLE_MS,
    policy: {
      allowPrivateNetwork: env.ALLOW_PRIVATE_NETWORK === "true",
      allowedDomains: allowedDomains ?? null,
    },
  };
}
