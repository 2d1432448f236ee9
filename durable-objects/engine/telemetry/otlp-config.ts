/**
 * Trace export settings from the standard OpenTelemetry variables: OTEL_EXPORTER_OTLP_ENDPOINT
 * (base URL; traces go to `<endpoint>/v1/traces`), OTEL_EXPORTER_OTLP_HEADERS (`k=v,k2=v2`,
 * values URL-encoded), OTEL_EXPORTER_OTLP_PROTOCOL (`http/protobuf`, the default, or
 * `http/json`), OTEL_SERVICE_NAME, and OTEL_CAPTURE_CONTENT=true to include message and tool content.
 */
import type { EnvVars } from "../config/env";

/** Where and how spans are sent. */
export interface OtlpConfig {
  url: string;
  headers: Record<string, string>;
  protocol: "http/protobuf" | "http/json";
  captureContent: boolean;
  serviceName: string;
}

/** Parses `k=v,k2=v2` (values URL-decoded); malformed pairs are skipped. */
export function parseOtlpHeaders(raw: string | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const pair of (raw ?? "").split(",")) {
    const i = pair.indexOf("=");
    if (i <= 0) continue;
    const key = pair.slice(0, i).trim();
    try {
      out[key] = decodeURIComponent(pair.slice(i + 1).trim());
    } catch {
      out[key] = pair.slice(i + 1).trim();
    }
  }
  return out;
}

/** The export settings, or null when no endpoint is set (tracing off). */
export function otlpConfig(v: EnvVars): OtlpConfig | null {
  if (!v.OTEL_EXPORTER_OTLP_ENDPOINT) return null;
  return {
    url: `${v.OTEL_EXPORTER_OTLP_ENDPOINT}/v1/traces`,
    headers: parseOtlpHeaders(v.OTEL_EXPORTER_OTLP_HEADERS),
    protocol: v.OTEL_EXPORTER_OTLP_PROTOCOL,
    captureContent: v.OTEL_CAPTURE_CONTENT,
    serviceName: v.OTEL_SERVICE_NAME,
  };
}
