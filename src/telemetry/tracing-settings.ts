// The standard OTEL_* variables the gateway's tracing reads (OpenTelemetry's "SDK environment variables"
// and the OTLP exporter's), from the parsed environment. No OpenTelemetry module is needed to read them:
// load-tracing.ts decides from these alone whether to load any.
import { StartupError } from '../config/startup-error.ts';

/** OTEL_TRACES_SAMPLER's values the gateway knows (the specification's, without the Jaeger and X-Ray ones). */
export const SAMPLERS = ['always_on', 'always_off', 'traceidratio', 'parentbased_always_on', 'parentbased_always_off', 'parentbased_traceidratio'] as const;
export interface TracingEnv {
  OTEL_SDK_DISABLED?: string | undefined;
  OTEL_EXPORTER_OTLP_ENDPOINT?: string | undefined;
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?: string | undefined;
  OTEL_EXPORTER_OTLP_PROTOCOL?: string | undefined;
  OTEL_EXPORTER_OTLP_TRACES_PROTOCOL?: string | undefined;
  OTEL_SERVICE_NAME?: string | undefined;
  OTEL_TRACES_SAMPLER?: string | undefined;
  OTEL_TRACES_SAMPLER_ARG?: string | undefined;
  OTEL_BSP_SCHEDULE_DELAY?: string | undefined;
  OTEL_BSP_MAX_QUEUE_SIZE?: string | undefined;
  OTEL_BSP_MAX_EXPORT_BATCH_SIZE?: string | undefined;
  OTEL_BSP_EXPORT_TIMEOUT?: string | undefined;
  OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT?: string | undefined;
}

export interface TracingSettings {
  /** Where spans are posted: the traces endpoint as given, or the general endpoint + `/v1/traces`. */
  url: string;
  protocol: 'http/protobuf' | 'http/json';
  serviceName: string | undefined;
  sampler: { name: (typeof SAMPLERS)[number]; arg: number | undefined };
  batch: { scheduledDelayMillis?: number; maxQueueSize?: number; maxExportBatchSize?: number; exportTimeoutMillis?: number };
  /** Whether prompts and answers go into spans (off unless the operator turns it on). */
  captureContent: boolean;
}

/** The settings, or null when no endpoint is set (or the SDK is disabled): then tracing loads nothing. */
export function tracingSettings(env: TracingEnv): TracingSettings | null {
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === 'true') return null;
  const url = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim() || tracesUrl(env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim());
  if (!url) return null;
  const protocol = (env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL ?? env.OTEL_EXPORTER_OTLP_PROTOCOL ?? 'http/protobuf').trim();
  if (protocol !== 'http/protobuf' && protocol !== 'http/json') {
    throw new StartupError(`OTEL_EXPORTER_OTLP_PROTOCOL '${protocol}' is not supported: use http/protobuf (the default) or http/json.`);
  }
  const sampler = (env.OTEL_TRACES_SAMPLER ?? 'parentbased_always_on').trim().toLowerCase();
  if (!(SAMPLERS as readonly string[]).includes(sampler)) throw new StartupError(`OTEL_TRACES_SAMPLER '${sampler}' is not supported: use one of ${SAMPLERS.join(', ')}.`);
  const arg = env.OTEL_TRACES_SAMPLER_ARG === undefined ? undefined : Number(env.OTEL_TRACES_SAMPLER_ARG);
  return {
    url,
    protocol,
    serviceName: env.OTEL_SERVICE_NAME?.trim() || undefined,
    sampler: { name: sampler as (typeof SAMPLERS)[number], arg: arg !== undefined && Number.isFinite(arg) ? arg : undefined },
    batch: {
      ...positive('scheduledDelayMillis', env.OTEL_BSP_SCHEDULE_DELAY),
      ...positive('maxQueueSize', env.OTEL_BSP_MAX_QUEUE_SIZE),
      ...positive('maxExportBatchSize', env.OTEL_BSP_MAX_EXPORT_BATCH_SIZE),
      ...positive('exportTimeoutMillis', env.OTEL_BSP_EXPORT_TIMEOUT),
    },
    captureContent: env.OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT?.trim().toLowerCase() === 'true',
  };
}

/** The general endpoint is a base: signals go below it (`/v1/traces`), as the OTLP exporter specification says. */
function tracesUrl(base: string | undefined): string | undefined {
  if (!base) return undefined;
  return base.endsWith('/') ? `${base}v1/traces` : `${base}/v1/traces`;
}

function positive<Name extends string>(name: Name, value: string | undefined): Partial<Record<Name, number>> {
  const number = value === undefined ? NaN : Number(value);
  return Number.isFinite(number) && number > 0 ? ({ [name]: number } as Record<Name, number>) : {};
}
