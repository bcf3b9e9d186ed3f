// Tracing is loaded only when an OTLP endpoint is set: the OpenTelemetry SDK, its exporter and their
// dependencies (~100 modules) are imported here, once, at start; a gateway without the variables never
// imports them (test/telemetry/tracing-process.test.ts checks), and its relay only checks that it has no tracer.
import type { Logger } from 'pino';
import type { CallTracer } from './call-trace.ts';
import { tracingSettings, type TracingEnv } from './tracing-settings.ts';

export async function loadTracing(env: TracingEnv, logger: Logger): Promise<CallTracer | null> {
  const settings = tracingSettings(env);
  if (settings === null) return null;
  const { createOtelCallTracer } = await import('./otel-call-tracer.ts');
  const tracer = createOtelCallTracer(settings, logger);
  logger.info({ url: settings.url, protocol: settings.protocol, sampler: settings.sampler.name, captureContent: settings.captureContent }, 'OpenTelemetry traces on');
  return tracer;
}
