/** Browser session recording's settings from the one environment schema (./env.ts). */
import { readEnv } from "./env";

const DAY_MS = 86_400_000;

/** How long recordings are kept, and the largest one. */
export interface RecordingConfig {
  ttlMs: number;
  maxBytes: number;
}

/** Reads RECORDING_TTL_DAYS (30) and RECORDING_MAX_BYTES (50 MiB). */
export function recordingConfig(env: object): RecordingConfig {
  const v = readEnv(env);
  return { ttlMs: v.RECORDING_TTL_DAYS * DAY_MS, maxBytes: v.RECORDING_MAX_BYTES };
}
