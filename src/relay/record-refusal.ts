// Calls refused before any upstream (a model the key may not use, an unknown model, a quota or rate limit,
// a malformed body) are logged like every other call, with their error and zero cost. Only once the key is
// known: an unauthenticated request has no owner to log it under. The row goes through the recorder's
// write-behind queue, so a refusal adds no database round trip either.
import type { CachedKey } from '../accounts/key-index.ts';
import { GatewayError } from '../gateway-errors.ts';
import { emptyUsage } from '../metering/usage.ts';
import type { RelayDeps } from './relay-deps.ts';
import { isRecordedFailure } from './record-call.ts';

interface RefusedCall {
  requestId: string;
  key: CachedKey;
  endpoint: string;
  inboundFormat: string;
  /** The model the request named, if it named one. */
  model: unknown;
  stream: boolean;
  startedAt: number;
}

/** Longest model name kept in a usage row: anything longer is not a model id anyone serves. */
const MAX_LOGGED_MODEL = 128;
const MAX_LOGGED_ERROR = 1000;

export function recordRefusedCall(deps: Pick<RelayDeps, 'recorder' | 'logger' | 'metrics' | 'accessLog'>, call: RefusedCall, error: unknown): void {
  // The relay already logged this call (it failed after admission): the error says so (record-call.ts).
  if (isRecordedFailure(error)) return;
  const status = error instanceof GatewayError ? error.status : 500;
  if (status === 401) return;
  // Endpoints are the gateway's own routes and codes its catalogue's: both label sets stay bounded.
  const code = error instanceof GatewayError ? error.gatewayCode : 'GW_ERR_INTERNAL';
  deps.metrics.errors.inc({ endpoint: call.endpoint, code });
  const model = typeof call.model === 'string' ? call.model.slice(0, MAX_LOGGED_MODEL) : '';
  const latencyMs = performance.now() - call.startedAt;
  if (deps.accessLog) {
    deps.accessLog.write({
      requestId: call.requestId, method: 'POST', path: call.endpoint, status, model, upstreamModel: null, keyName: call.key.name, group: call.key.groupName,
      inputTokens: 0, outputTokens: 0, costMicros: 0, latencyMs, ttftMs: null, overheadMs: latencyMs, errorCode: code,
    });
  }
  try {
    deps.recorder.record({
      requestId: call.requestId,
      key: call.key,
      model,
      upstreamModel: null,
      channelId: null,
      inboundFormat: call.inboundFormat,
      endpoint: call.endpoint,
      stream: call.stream,
      status,
      latencyMs,
      // Refused before any upstream was asked: all of its time was the gateway's.
      overheadMs: latencyMs,
      ttftMs: null,
      usage: emptyUsage(),
      error: (error instanceof Error ? error.message : String(error)).slice(0, MAX_LOGGED_ERROR),
      attempts: null,
      reservation: null,
      pricing: undefined,
    });
  } catch (recordError) {
    // Never let logging a refusal turn it into another error.
    deps.logger.warn({ err: recordError, requestId: call.requestId }, 'logging a refused call failed');
  }
}
