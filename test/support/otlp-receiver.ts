/**
 * A local OTLP/HTTP trace collector for the tracing tests: decodes `http/protobuf` bodies with
 * protobufjs (the OTLP trace messages, field numbers as in opentelemetry-proto) and `http/json`
 * ones, and keeps the spans. A control server reads them and takes the collector down or up.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import protobuf from "protobufjs";
import { keepIdleConnections } from "./keep-alive.ts";

const PROTO = `syntax = "proto3";
message ExportTraceServiceRequest { repeated ResourceSpans resource_spans = 1; }
message ResourceSpans { Resource resource = 1; repeated ScopeSpans scope_spans = 2; }
message Resource { repeated KeyValue attributes = 1; }
message ScopeSpans { Scope scope = 1; repeated Span spans = 2; }
message Scope { string name = 1; string version = 2; }
message Span { bytes trace_id = 1; bytes span_id = 2; bytes parent_span_id = 4; string name = 5; int32 kind = 6;
  fixed64 start_time_unix_nano = 7; fixed64 end_time_unix_nano = 8; repeated KeyValue attributes = 9; Status status = 15; }
message Status { string message = 2; int32 code = 3; }
message KeyValue { string key = 1; AnyValue value = 2; }
message AnyValue { oneof value { string string_value = 1; bool bool_value = 2; int64 int_value = 3;
  double double_value = 4; ArrayValue array_value = 5; } }
message ArrayValue { repeated AnyValue values = 1; }`;

const Request = protobuf.parse(PROTO, { keepCase: true }).root.lookupType("ExportTraceServiceRequest");

/** A span as the tests read it. */
export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId: string | null;
  name: string;
  kind: number;
  startNs: number;
  endNs: number;
  attributes: Record<string, unknown>;
  status: { code: number; message?: string };
  service: string;
  protocol: "protobuf" | "json";
}

type Any = Record<string, unknown>;
const hex = (b: unknown) =>
  typeof b === "string" ? b.toLowerCase() : Buffer.from((b as Uint8Array) ?? []).toString("hex");

function anyValue(v: Any | undefined): unknown {
  if (!v) return null;
  const x = v as Record<string, unknown>;
  if ("string_value" in x || "stringValue" in x) return x.string_value ?? x.stringValue;
  if ("bool_value" in x || "boolValue" in x) return x.bool_value ?? x.boolValue;
  if ("int_value" in x || "intValue" in x) return Number(x.int_value ?? x.intValue);
  if ("double_value" in x || "doubleValue" in x) return Number(x.double_value ?? x.doubleValue);
  const arr = (x.array_value ?? x.arrayValue) as { values?: Any[] } | undefined;
  return arr ? (arr.values ?? []).map(anyValue) : null;
}

function attrs(list: Any[] | undefined): Record<string, unknown> {
  return Object.fromEntries((list ?? []).map((kv) => [kv.key as string, anyValue(kv.value as Any)]));
}

/** Flattens an export request (proto objects use snake_case, OTLP JSON camelCase). */
function spansOf(req: Any, protocol: ReceivedSpan["protocol"]): ReceivedSpan[] {
  const out: ReceivedSpan[] = [];
  for (const rs of (req.resource_spans ?? req.resourceSpans ?? []) as Any[]) {
    const resource = attrs((rs.resource as Any | undefined)?.attributes as Any[]);
    for (const ss of (rs.scope_spans ?? rs.scopeSpans ?? []) as Any[]) {
      for (const s of (ss.spans ?? []) as Any[]) {
        const parent = hex(s.parent_span_id ?? s.parentSpanId);
        const status = (s.status ?? {}) as Any;
        out.push({
          traceId: hex(s.trace_id ?? s.traceId),
          spanId: hex(s.span_id ?? s.spanId),
          parentSpanId: parent ? parent : null,
          name: s.name as string,
          kind: Number(s.kind ?? 0),
          startNs: Number(s.start_time_unix_nano ?? s.startTimeUnixNano),
          endNs: Number(s.end_time_unix_nano ?? s.endTimeUnixNano),
          attributes: attrs(s.attributes as Any[]),
          status: {
            code: Number(status.code ?? 0),
            ...(status.message ? { message: String(status.message) } : {}),
          },
          service: String(resource["service.name"]),
          protocol,
        });
      }
    }
  }
  return out;
}

async function body(req: IncomingMessage): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const c of req) parts.push(c as Buffer);
  return Buffer.concat(parts);
}

function send(res: ServerResponse, status: number, value: unknown, type = "application/json") {
  res.writeHead(status, { "content-type": type });
  res.end(typeof value === "string" || Buffer.isBuffer(value) ? value : JSON.stringify(value));
}

/** The collector and its control server. */
export interface OtlpReceiver {
  /** The collector's base URL: set as OTEL_EXPORTER_OTLP_ENDPOINT. */
  url: string;
  /** `GET /spans`, `GET /requests`, `POST /reset`, `POST /down`, `POST /up`, `POST /hang`. */
  controlUrl: string;
  close(): Promise<void>;
}

/** What the collector has received, and whether it is hanging (taking requests, never answering). */
interface Received {
  spans: ReceivedSpan[];
  requests: { contentType: string; headers: Record<string, unknown> }[];
  hang: boolean;
}

/** `POST /v1/traces`: records the request and keeps its spans (protobuf or JSON); hangs when told to. */
async function exportTraces(received: Received, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const raw = await body(req);
  if (req.url !== "/v1/traces" || req.method !== "POST") return send(res, 404, { error: "not found" });
  if (received.hang) return; // never answers
  const type = String(req.headers["content-type"] ?? "");
  received.requests.push({ contentType: type, headers: req.headers });
  try {
    if (type.startsWith("application/x-protobuf")) {
      const decoded = Request.toObject(Request.decode(raw), { longs: String, bytes: Buffer }) as Any;
      received.spans.push(...spansOf(decoded, "protobuf"));
      return send(res, 200, Buffer.alloc(0), "application/x-protobuf");
    }
    if (type.startsWith("application/json")) {
      received.spans.push(...spansOf(JSON.parse(raw.toString("utf8")) as Any, "json"));
      return send(res, 200, {});
    }
    return send(res, 415, { error: `unsupported content-type ${type}` });
  } catch (err) {
    return send(res, 400, { error: (err as Error).message });
  }
}

/** The collector server, tracking its open sockets so that taking it down cuts them. */
function createCollector(received: Received, sockets: Set<Socket>): Server {
  const collector: Server = createServer((req, res) => exportTraces(received, req, res));
  collector.on("connection", (s) => {
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
  });
  keepIdleConnections(collector);
  return collector;
}

/** The spans `?trace_id=` and `?conversation_id=` (either optional) select. */
function matchingSpans(spans: ReceivedSpan[], url: URL): ReceivedSpan[] {
  const trace = url.searchParams.get("trace_id");
  const conv = url.searchParams.get("conversation_id");
  return spans.filter(
    (s) => (!trace || s.traceId === trace) && (!conv || s.attributes["gen_ai.conversation.id"] === conv),
  );
}

/** Takes the collector down and brings it back up on the same port. */
interface CollectorSwitch {
  down(): Promise<void>;
  up(): Promise<void>;
  listening(): boolean;
}

/** The control server: `/spans`, `/requests`, `/down`, `/up` and `/hang`. */
function createControl(received: Received, collector: CollectorSwitch): Server {
  const control = createServer(async (req, res) => {
    await body(req);
    const url = new URL(req.url ?? "/", "http://x");
    if (url.pathname === "/spans") return send(res, 200, { spans: matchingSpans(received.spans, url) });
    if (url.pathname === "/requests") return send(res, 200, { requests: received.requests });
    if (url.pathname === "/down") {
      if (collector.listening()) await collector.down();
      return send(res, 200, { down: true });
    }
    if (url.pathname === "/up" || url.pathname === "/hang") {
      received.hang = url.pathname === "/hang";
      if (!collector.listening()) await collector.up();
      return send(res, 200, { up: true, hang: received.hang });
    }
    send(res, 404, { error: "unknown control" });
  });
  keepIdleConnections(control);
  return control;
}

/** Starts the collector (on one port) and its control server (on another). */
export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const received: Received = { spans: [], requests: [], hang: false };
  const sockets = new Set<Socket>();
  const collector = createCollector(received, sockets);
  await new Promise<void>((r) => collector.listen(0, "127.0.0.1", r));
  const port = (collector.address() as AddressInfo).port;
  const down = () =>
    new Promise<void>((r) => {
      for (const s of sockets) s.destroy();
      collector.close(() => r());
    });
  const up = () => new Promise<void>((r) => collector.listen(port, "127.0.0.1", r));
  const control = createControl(received, { down, up, listening: () => collector.listening });
  await new Promise<void>((r) => control.listen(0, "127.0.0.1", r));
  return {
    url: `http://127.0.0.1:${port}`,
    controlUrl: `http://127.0.0.1:${(control.address() as AddressInfo).port}`,
    close: async () => {
      received.hang = false;
      if (collector.listening) await down();
      await new Promise<void>((r) => control.close(() => r()));
    },
  };
}
