// An OTLP/HTTP trace receiver on a real port, for tests: it takes what the gateway's exporter posts to
// /v1/traces, in protobuf (decoded with protobufjs over the OTLP trace messages, written out below from
// opentelemetry-proto's trace.proto, common.proto and resource.proto) or in JSON, and keeps every span.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import protobuf from 'protobufjs';

export type AttributeValue = string | number | boolean | null | AttributeValue[];

export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  /** '' for a root span. */
  parentSpanId: string;
  name: string;
  /** OTLP's SpanKind: 1 internal, 2 server, 3 client. */
  kind: number;
  attributes: Record<string, AttributeValue>;
  status: { code: number; message: string };
  startNanos: bigint;
  endNanos: bigint;
  /** The attributes of the resource the span was exported under (service.name, telemetry.sdk.*, …). */
  resource: Record<string, AttributeValue>;
}

export interface OtlpReceiver {
  url: string;
  spans: ReceivedSpan[];
  /** Content types of the exports received. */
  contentTypes: string[];
  /** Waits until `predicate` holds over the spans received (polling), or fails after `timeoutMs`. */
  waitFor(predicate: (spans: ReceivedSpan[]) => boolean, timeoutMs?: number): Promise<ReceivedSpan[]>;
  close(): Promise<void>;
}

const TRACE_PROTO = `
syntax = "proto3";
package otlp;
message ExportTraceServiceRequest { repeated ResourceSpans resource_spans = 1; }
message ResourceSpans { Resource resource = 1; repeated ScopeSpans scope_spans = 2; string schema_url = 3; }
message Resource { repeated KeyValue attributes = 1; uint32 dropped_attributes_count = 2; }
message ScopeSpans { InstrumentationScope scope = 1; repeated Span spans = 2; string schema_url = 3; }
message InstrumentationScope { string name = 1; string version = 2; repeated KeyValue attributes = 3; uint32 dropped_attributes_count = 4; }
message Span {
  bytes trace_id = 1; bytes span_id = 2; string trace_state = 3; bytes parent_span_id = 4; string name = 5; int32 kind = 6;
  fixed64 start_time_unix_nano = 7; fixed64 end_time_unix_nano = 8; repeated KeyValue attributes = 9; uint32 dropped_attributes_count = 10;
  Status status = 15; fixed32 flags = 16;
}
message Status { string message = 2; int32 code = 3; }
message KeyValue { string key = 1; AnyValue value = 2; }
message AnyValue {
  oneof value { string string_value = 1; bool bool_value = 2; int64 int_value = 3; double double_value = 4; ArrayValue array_value = 5; KeyValueList kvlist_value = 6; bytes bytes_value = 7; }
}
message ArrayValue { repeated AnyValue values = 1; }
message KeyValueList { repeated KeyValue values = 1; }
`;

const requestType = protobuf.parse(TRACE_PROTO, { keepCase: false }).root.lookupType('otlp.ExportTraceServiceRequest');

interface WireValue {
  stringValue?: string; boolValue?: boolean; intValue?: string | number; doubleValue?: number;
  arrayValue?: { values?: WireValue[] }; bytesValue?: string;
}
interface WireSpan {
  traceId: string; spanId: string; parentSpanId?: string; name: string; kind?: number;
  startTimeUnixNano: string | number; endTimeUnixNano: string | number;
  attributes?: { key: string; value?: WireValue }[]; status?: { code?: number; message?: string };
}
interface WireExport { resourceSpans?: { resource?: { attributes?: { key: string; value?: WireValue }[] }; scopeSpans?: { spans?: WireSpan[] }[] }[] }

function valueOf(value: WireValue | undefined): AttributeValue {
  if (!value) return null;
  if (value.stringValue !== undefined) return value.stringValue;
  if (value.boolValue !== undefined) return value.boolValue;
  if (value.intValue !== undefined) return Number(value.intValue);
  if (value.doubleValue !== undefined) return value.doubleValue;
  if (value.arrayValue !== undefined) return (value.arrayValue.values ?? []).map(valueOf);
  return null;
}

function spansOf(exported: WireExport): ReceivedSpan[] {
  const spans: ReceivedSpan[] = [];
  for (const resource of exported.resourceSpans ?? []) {
    const resourceAttributes = Object.fromEntries((resource.resource?.attributes ?? []).map((attribute) => [attribute.key, valueOf(attribute.value)]));
    for (const scope of resource.scopeSpans ?? []) {
      for (const span of scope.spans ?? []) {
        spans.push({
          traceId: span.traceId,
          spanId: span.spanId,
          parentSpanId: span.parentSpanId ?? '',
          name: span.name,
          kind: span.kind ?? 0,
          attributes: Object.fromEntries((span.attributes ?? []).map((attribute) => [attribute.key, valueOf(attribute.value)])),
          status: { code: span.status?.code ?? 0, message: span.status?.message ?? '' },
          startNanos: BigInt(span.startTimeUnixNano),
          endNanos: BigInt(span.endTimeUnixNano),
          resource: resourceAttributes,
        });
      }
    }
  }
  return spans;
}

/** Protobuf: ids as bytes (shown as hex, as the JSON encoding writes them), 64-bit numbers as strings. */
function decodeProtobuf(body: Buffer): WireExport {
  const message = requestType.decode(body);
  const object = requestType.toObject(message, { longs: String, bytes: String, defaults: false, oneofs: false });
  const hex = (base64: string | undefined) => (base64 ? Buffer.from(base64, 'base64').toString('hex') : '');
  for (const resource of (object as WireExport).resourceSpans ?? []) {
    for (const scope of resource.scopeSpans ?? []) {
      for (const span of scope.spans ?? []) {
        span.traceId = hex(span.traceId);
        span.spanId = hex(span.spanId);
        span.parentSpanId = hex(span.parentSpanId);
      }
    }
  }
  return object as WireExport;
}

export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const spans: ReceivedSpan[] = [];
  const contentTypes: string[] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks);
      const type = String(request.headers['content-type'] ?? '');
      contentTypes.push(type);
      if (request.method !== 'POST' || request.url !== '/v1/traces') {
        response.writeHead(404).end();
        return;
      }
      try {
        spans.push(...spansOf(type.includes('json') ? (JSON.parse(body.toString('utf8')) as WireExport) : decodeProtobuf(body)));
      } catch (error) {
        response.writeHead(400, { 'content-type': 'text/plain' }).end(String(error));
        return;
      }
      // An empty ExportTraceServiceResponse: no partial success to report.
      if (type.includes('json')) response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      else response.writeHead(200, { 'content-type': 'application/x-protobuf' }).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    spans,
    contentTypes,
    async waitFor(predicate, timeoutMs = 10_000) {
      const until = Date.now() + timeoutMs;
      while (!predicate(spans)) {
        if (Date.now() > until) throw new Error(`the spans expected did not arrive; received: ${spans.map((span) => span.name).join(', ')}`);
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      return spans;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
