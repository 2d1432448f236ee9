/**
 * A finished span as Cirrus keeps it, its ids derived from the run so that a run resumed in a
 * new Durable Object instance keeps one trace, and its shape as the OTLP serializers read it.
 */
import type { ProtobufTraceSerializer } from "@opentelemetry/otlp-transformer";

/** A span as the OTLP serializers read it. */
type ReadableSpan = Parameters<typeof ProtobufTraceSerializer.serializeRequest>[0][number];

/** Attribute values OTLP carries. */
export type AttrValue = string | number | boolean | string[];

/** A finished span. */
export interface SpanRecord {
  traceId: string;
  spanId: string;
  parentSpanId: string | null;
  name: string;
  /** 0 internal, 2 client (OpenTelemetry's SpanKind). */
  kind: 0 | 2;
  startMs: number;
  endMs: number;
  attributes: Record<string, AttrValue>;
  /** 0 unset, 1 ok, 2 error. */
  status: { code: 0 | 1 | 2; message?: string };
}

/** 64-bit FNV-1a of a string with a seed, as 16 hex digits. */
function fnv64(s: string, seed: bigint): string {
  let h = 0xcbf29ce484222325n ^ seed;
  for (let i = 0; i < s.length; i++) {
    h ^= BigInt(s.charCodeAt(i));
    h = (h * 0x100000001b3n) & 0xffffffffffffffffn;
  }
  return h.toString(16).padStart(16, "0");
}

/** The trace of a run: its uuid when it has one, else a hash of its id. */
export function traceIdOf(runId: string): string {
  const hex = runId.replace(/^run_/, "").replaceAll("-", "").toLowerCase();
  if (/^[0-9a-f]{32}$/.test(hex) && !/^0+$/.test(hex)) return hex;
  return fnv64(runId, 1n) + fnv64(runId, 2n);
}

/** A span id that is the same every time for the same parts (the run span, a tool call's span). */
export function stableSpanId(...parts: string[]): string {
  const id = fnv64(parts.join("\u0000"), 3n);
  return id === "0000000000000000" ? "0000000000000001" : id;
}

/** A fresh random span id. */
export function randomSpanId(): string {
  const b = crypto.getRandomValues(new Uint8Array(8));
  b[0] ||= 1;
  return [...b].map((x) => x.toString(16).padStart(2, "0")).join("");
}

const hr = (ms: number): [number, number] => [Math.floor(ms / 1000), Math.round((ms % 1000) * 1e6)];

/** The spans in the shape @opentelemetry/otlp-transformer serializes (one resource, one scope). */
export function readableSpans(spans: SpanRecord[], serviceName: string, version: string): ReadableSpan[] {
  const resource = { attributes: { "service.name": serviceName, "telemetry.sdk.name": "cirrus" } };
  const scope = { name: "cirrus", version };
  return spans.map((s) => {
    const ctx = { traceId: s.traceId, spanId: s.spanId, traceFlags: 1 };
    return {
      name: s.name,
      kind: s.kind,
      spanContext: () => ctx,
      parentSpanContext: s.parentSpanId
        ? { traceId: s.traceId, spanId: s.parentSpanId, traceFlags: 1, isRemote: false }
        : undefined,
      startTime: hr(s.startMs),
      endTime: hr(Math.max(s.endMs, s.startMs)),
      duration: hr(Math.max(0, s.endMs - s.startMs)),
      status: s.status,
      attributes: s.attributes,
      links: [],
      events: [],
      ended: true,
      resource,
      instrumentationScope: scope,
      droppedAttributesCount: 0,
      droppedEventsCount: 0,
      droppedLinksCount: 0,
    } as unknown as ReadableSpan;
  });
}
