// The CallTracer over the OpenTelemetry SDK: one SERVER span per relayed call named by the GenAI semantic
// conventions (`chat gpt-4o`), an INTERNAL span for admission, and one CLIENT span per upstream attempt,
// whose context goes upstream as `traceparent`. Spans are batched and posted over OTLP/HTTP (protobuf or
// JSON) by the official exporter. Loaded only when an endpoint is set (load-tracing.ts). The provider is
// the gateway's own, not registered globally, so several gateways in one process (the tests) keep theirs.
import { ROOT_CONTEXT, SpanKind, SpanStatusCode, defaultTextMapGetter, trace, type Attributes, type Span, type Tracer } from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { defaultResource, detectResources, emptyResource, resourceAttributesEnvDetector, resourceFromAttributes, serviceNameEnvDetector, type Resource } from '@opentelemetry/resources';
import { AlwaysOffSampler, AlwaysOnSampler, BatchSpanProcessor, ParentBasedSampler, TraceIdRatioBasedSampler, TracerProvider, type Sampler, type SpanExporter } from '@opentelemetry/sdk-trace';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { OTLPExporterBase } from '@opentelemetry/otlp-exporter-base';
import { convertLegacyHttpOptions, createOtlpHttpExportDelegate } from '@opentelemetry/otlp-exporter-base/node-http';
import { JsonTraceSerializer, TraceExporterMetricsHelper } from '@opentelemetry/otlp-transformer';
import type { Logger } from 'pino';
import type { RoutedChannel } from '../routing/routed-channel.ts';
import { GatewayError } from '../gateway-errors.ts';
import type { AttemptKind, AttemptTrace, CallTrace, CallTracer, TracedCall, TracedCallEnd } from './call-trace.ts';
import type { TracingSettings } from './tracing-settings.ts';
import { operationOf, providerNameOf } from './genai-names.ts';
import { inputMessagesOf, outputMessagesOf } from './genai-content.ts';
import type { AnswerReading } from '../hub/hub-format.ts';

const SCOPE = 'model-gateway';

export function createOtelCallTracer(settings: TracingSettings, logger: Logger): CallTracer {
  const provider = new TracerProvider({
    resource: resourceOf(settings),
    sampler: samplerOf(settings.sampler),
    spanProcessors: [new BatchSpanProcessor({ exporter: exporterOf(settings), ...settings.batch })],
  });
  const tracer = provider.getTracer(SCOPE);
  const propagator = new W3CTraceContextPropagator();
  return {
    startCall: (call) => new OtelCallTrace(tracer, propagator, call, settings.captureContent),
    async shutdown() {
      await provider.shutdown().catch((error: unknown) => logger.warn({ err: error }, 'sending the last spans failed'));
    },
  };
}

/**
 * The resource every span carries, by the specification's precedence: the SDK's defaults (telemetry.sdk.*),
 * then the gateway's name, then OTEL_RESOURCE_ATTRIBUTES and OTEL_SERVICE_NAME, read by the SDK's own
 * detectors (percent-decoding; a malformed OTEL_RESOURCE_ATTRIBUTES is ignored whole), OTEL_SERVICE_NAME
 * last so that it wins over a service.name in the attributes. They read the process's environment, as the
 * exporter reads its OTEL_EXPORTER_OTLP_* variables; OTEL_SERVICE_NAME is also taken from the gateway's
 * parsed environment (the same variables when started by `npm start`; the tests' own otherwise).
 */
function resourceOf(settings: TracingSettings): Resource {
  return defaultResource()
    .merge(resourceFromAttributes({ 'service.name': 'model-gateway' }))
    .merge(detectResources({ detectors: [resourceAttributesEnvDetector, serviceNameEnvDetector] }))
    .merge(settings.serviceName ? resourceFromAttributes({ 'service.name': settings.serviceName }) : emptyResource());
}

function exporterOf(settings: TracingSettings): SpanExporter {
  // The URL is passed as the environment gave it; headers, timeout and compression come from the standard
  // OTEL_EXPORTER_OTLP_* variables, which the exporter reads itself.
  if (settings.protocol === 'http/protobuf') return new OTLPTraceExporter({ url: settings.url });
  // The http/json exporter, built as @opentelemetry/exporter-trace-otlp-http builds it, from the same parts.
  return new OTLPExporterBase(createOtlpHttpExportDelegate(
    convertLegacyHttpOptions({ url: settings.url }, 'TRACES', 'v1/traces', { 'Content-Type': 'application/json' }),
    JsonTraceSerializer,
    'otlp_http_json_span_exporter',
    TraceExporterMetricsHelper,
    undefined,
  )) as SpanExporter;
}

/** OTEL_TRACES_SAMPLER's values (an unknown one was refused at start by tracing-settings.ts). */
function samplerOf({ name, arg }: TracingSettings['sampler']): Sampler {
  const ratio = new TraceIdRatioBasedSampler(arg ?? 1);
  switch (name) {
    case 'always_on': return new AlwaysOnSampler();
    case 'always_off': return new AlwaysOffSampler();
    case 'traceidratio': return ratio;
    case 'parentbased_always_on': return new ParentBasedSampler({ root: new AlwaysOnSampler() });
    case 'parentbased_always_off': return new ParentBasedSampler({ root: new AlwaysOffSampler() });
    case 'parentbased_traceidratio': return new ParentBasedSampler({ root: ratio });
  }
}

class OtelCallTrace implements CallTrace {
  private readonly tracer: Tracer;
  private readonly span: Span;
  private readonly operation: string;
  private readonly spanContext;
  private servingAttempt: OtelAttemptTrace | null = null;
  /** The channel of the latest attempt: the call's provider when none answered. */
  private lastChannel: RoutedChannel | null = null;
  private attempts = 0;
  private readonly captureContent: boolean;
  private reading: AnswerReading | null = null;

  constructor(tracer: Tracer, propagator: W3CTraceContextPropagator, call: TracedCall, captureContent: boolean) {
    this.tracer = tracer;
    this.captureContent = captureContent;
    const parent = call.headers ? propagator.extract(ROOT_CONTEXT, call.headers, defaultTextMapGetter) : ROOT_CONTEXT;
    const { operation, outputType } = operationOf(call.endpoint);
    this.operation = operation;
    const attributes: Attributes = {
      'gen_ai.operation.name': operation,
      'gen_ai.request.model': call.model,
      'gen_ai.request.stream': call.stream,
      'http.request.method': 'POST',
      'http.route': call.endpoint,
      'gateway.request_id': call.requestId,
      'gateway.key.name': call.keyName,
      'gateway.key.group': call.groupName,
    };
    if (outputType) attributes['gen_ai.output.type'] = outputType;
    if (captureContent) Object.assign(attributes, inputMessagesOf(call.endpoint, call.inboundFormat, call.body));
    this.span = tracer.startSpan(`${operation} ${call.model}`, { kind: SpanKind.SERVER, attributes, startTime: call.startedAt }, parent);
    this.spanContext = trace.setSpan(parent, this.span);
  }

  admission(startedAt: number, error: unknown): void {
    const span = this.tracer.startSpan('gateway admission', { kind: SpanKind.INTERNAL, startTime: startedAt }, this.spanContext);
    if (error !== null) markError(span, error);
    span.end();
  }

  attempt(kind: AttemptKind, channel: RoutedChannel, model: string, upstreamModel: string): AttemptTrace {
    this.lastChannel = channel;
    this.attempts++;
    const origin = new URL(channel.origin);
    const span = this.tracer.startSpan(`${this.operation} ${upstreamModel}`, {
      kind: SpanKind.CLIENT,
      attributes: {
        'gen_ai.operation.name': this.operation,
        'gen_ai.provider.name': providerNameOf(channel.type),
        'gen_ai.request.model': upstreamModel,
        'server.address': origin.hostname,
        'server.port': Number(origin.port || (origin.protocol === 'https:' ? 443 : 80)),
        'gateway.channel': channel.name,
        'gateway.model': model,
        'gateway.attempt.kind': kind,
        'gateway.attempt.number': this.attempts,
      },
    }, this.spanContext);
    return new OtelAttemptTrace(span, channel);
  }

  serving(attempt: AttemptTrace): void {
    this.servingAttempt = attempt as OtelAttemptTrace;
  }

  servingBroke(error: unknown): void {
    this.servingAttempt?.failed(200, error);
    this.servingAttempt = null;
  }

  answered(reading: AnswerReading): void {
    this.reading = reading;
  }

  end(outcome: TracedCallEnd): void {
    const span = this.span;
    const channel = this.servingAttempt?.channel ?? this.lastChannel;
    const usage = outcome.usage;
    const attributes: Attributes = {
      'gen_ai.provider.name': channel ? providerNameOf(channel.type) : 'model-gateway',
      'gen_ai.usage.input_tokens': usage.inputTokens,
      'gen_ai.usage.output_tokens': usage.outputTokens,
      'http.response.status_code': outcome.status,
      'gateway.cost_micro_usd': outcome.costMicros,
      'gateway.overhead_ms': outcome.overheadMs,
      'gateway.attempts': this.attempts,
    };
    if (outcome.upstreamModel !== null) {
      attributes['gen_ai.response.model'] = outcome.upstreamModel;
      attributes['gateway.response.model'] = outcome.model;
    }
    if (usage.cachedInputTokens > 0) attributes['gen_ai.usage.cache_read.input_tokens'] = usage.cachedInputTokens;
    if (usage.cacheWriteTokens > 0) attributes['gen_ai.usage.cache_creation.input_tokens'] = usage.cacheWriteTokens;
    if (usage.reasoningTokens > 0) attributes['gen_ai.usage.reasoning.output_tokens'] = usage.reasoningTokens;
    if (outcome.ttftMs !== null && outcome.ttftMs > 0) attributes['gen_ai.response.time_to_first_chunk'] = outcome.ttftMs / 1000;
    const reading = this.reading;
    if (reading !== null) {
      if (reading.finishReasons.length > 0) attributes['gen_ai.response.finish_reasons'] = reading.finishReasons;
      if (this.captureContent) Object.assign(attributes, outputMessagesOf(reading));
    }
    span.setAttributes(attributes);
    const serving = this.servingAttempt;
    if (serving) {
      serving.answered(outcome);
      this.servingAttempt = null;
    }
    if (outcome.error !== null) {
      span.setAttribute('error.type', outcome.errorCode ?? 'error');
      // A server span's error is its own failure (5xx) or an answer cut short; a 4xx is the client's.
      if (outcome.status >= 500 || outcome.status < 400) span.setStatus({ code: SpanStatusCode.ERROR, message: outcome.error });
    }
    span.end();
  }
}

class OtelAttemptTrace implements AttemptTrace {
  readonly traceparent: string;
  readonly channel: RoutedChannel;
  private readonly span: Span;
  private ended = false;

  constructor(span: Span, channel: RoutedChannel) {
    this.span = span;
    this.channel = channel;
    const context = span.spanContext();
    this.traceparent = `00-${context.traceId}-${context.spanId}-0${context.traceFlags & 1}`;
  }

  failed(status: number | null, error: unknown): void {
    if (this.ended) return;
    this.ended = true;
    if (status !== null) this.span.setAttribute('http.response.status_code', status);
    markError(this.span, error);
    this.span.end();
  }

  cancelled(): void {
    if (this.ended) return;
    this.ended = true;
    this.span.setAttribute('gateway.attempt.cancelled', true);
    this.span.end();
  }

  /** The call ended on this attempt's answer. */
  answered(outcome: TracedCallEnd): void {
    if (this.ended) return;
    this.ended = true;
    const span = this.span;
    span.setAttributes({
      'http.response.status_code': outcome.status,
      'gen_ai.usage.input_tokens': outcome.usage.inputTokens,
      'gen_ai.usage.output_tokens': outcome.usage.outputTokens,
    });
    if (outcome.upstreamModel !== null) span.setAttribute('gen_ai.response.model', outcome.upstreamModel);
    if (outcome.error !== null) markError(span, new Error(outcome.error), outcome.errorCode);
    span.end();
  }
}

function markError(span: Span, error: unknown, code?: string | null): void {
  const type = code ?? (error instanceof GatewayError ? error.gatewayCode : error instanceof Error ? error.name : 'error');
  span.setAttribute('error.type', type);
  span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.message : String(error) });
}
