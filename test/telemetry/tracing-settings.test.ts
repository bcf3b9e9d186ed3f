// What the standard OTEL_* variables turn into: nothing at all without an endpoint (so nothing is loaded),
// the traces URL as the OTLP exporter specification builds it, and a clear refusal of what is not supported.
import { describe, expect, it } from 'vitest';
import { tracingSettings } from '../../src/telemetry/tracing-settings.ts';
import { StartupError } from '../../src/config/startup-error.ts';

describe('tracing settings', () => {
  it('are null without an endpoint, or with the SDK disabled', () => {
    expect(tracingSettings({})).toBeNull();
    expect(tracingSettings({ OTEL_EXPORTER_OTLP_ENDPOINT: '  ' })).toBeNull();
    expect(tracingSettings({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318', OTEL_SDK_DISABLED: 'TRUE' })).toBeNull();
  });

  it('post to /v1/traces below the general endpoint, or to the traces endpoint as given', () => {
    expect(tracingSettings({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' })?.url).toBe('http://collector:4318/v1/traces');
    expect(tracingSettings({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318/base/' })?.url).toBe('http://collector:4318/base/v1/traces');
    expect(tracingSettings({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://a:4318', OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://b:9999/traces' })?.url).toBe('http://b:9999/traces');
  });

  it('default to protobuf, parent-based sampling and no content capture', () => {
    expect(tracingSettings({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318' })).toEqual({
      url: 'http://c:4318/v1/traces', protocol: 'http/protobuf', serviceName: undefined,
      sampler: { name: 'parentbased_always_on', arg: undefined }, batch: {}, captureContent: false,
    });
    const set = tracingSettings({
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318', OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf', OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/json',
      OTEL_SERVICE_NAME: 'edge', OTEL_TRACES_SAMPLER: 'TraceIdRatio', OTEL_TRACES_SAMPLER_ARG: '0.25', OTEL_BSP_SCHEDULE_DELAY: '200', OTEL_BSP_MAX_QUEUE_SIZE: 'lots',
      OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT: 'true',
    });
    expect(set).toMatchObject({ protocol: 'http/json', serviceName: 'edge', sampler: { name: 'traceidratio', arg: 0.25 }, batch: { scheduledDelayMillis: 200 }, captureContent: true });
    expect(set!.batch).not.toHaveProperty('maxQueueSize');
  });

  it('refuse gRPC and unknown samplers with a sentence for the operator', () => {
    expect(() => tracingSettings({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4317', OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' })).toThrow(StartupError);
    expect(() => tracingSettings({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4317', OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' })).toThrow(/http\/protobuf/);
    expect(() => tracingSettings({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318', OTEL_TRACES_SAMPLER: 'jaeger_remote' })).toThrow(/OTEL_TRACES_SAMPLER 'jaeger_remote'/);
  });
});
