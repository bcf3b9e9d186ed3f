// Records the outcome of a relayed call: usage log, charge, token counters and metrics. Each call has
// exactly one place that records it, by construction: a committed answer's own writer (the stream or bytes
// generator's finally, or the whole answer's commit), else relayEndpoint's catch when no answer was
// committed. Recording returns the settlement (the charge); nothing about it is written on the call.
import type { Usage } from '../metering/usage.ts';
import { emptyUsage } from '../metering/usage.ts';
import { computeCostMicros, type ModelPricing } from '../metering/pricing.ts';
import type { RelayDeps } from './relay-deps.ts';
import type { RelayCall } from './relay-types.ts';
import type { GatewayErrorCode } from '../gateway-error-codes.ts';
import { overheadMs } from './upstream-wait.ts';
import { endCallTrace } from './call-tracing.ts';

interface CallOutcome {
  /** The public id of the model that answered (a fallback may answer); defaults to the requested one. */
  model?: string;
  status: number;
  usage: Usage;
  channelId: number | null;
  upstreamModel: string | null;
  ttftMs: number | null;
  error: string | null;
  /** The gateway error code (GW_ERR_…) when the call failed with one. */
  errorCode?: GatewayErrorCode | null;
  /**
   * The gateway's own time in ms, fixed when the answer was committed (the overhead header's value); absent
   * for a call that failed, whose own time is all of it but the upstream waits.
   */
  overheadMs?: number;
}

/** What recording a call charged it, in micro-USD: the recorder's computation, for `x-gateway-cost`. */
type SettledCostMicros = number;

export function recordCall(deps: RelayDeps, call: RelayCall, outcome: CallOutcome): SettledCostMicros {
  const latencyMs = performance.now() - call.startedAt;
  const overhead = outcome.overheadMs ?? overheadMs(call.startedAt, call.startedAt + latencyMs, call.meter.upstreamWaitMs);
  const costMicros = deps.recorder.record({
    requestId: call.requestId,
    key: call.key,
    model: outcome.model ?? call.model,
    upstreamModel: outcome.upstreamModel,
    channelId: outcome.channelId,
    inboundFormat: call.inboundFormat,
    endpoint: call.endpoint,
    stream: call.stream,
    status: outcome.status,
    latencyMs,
    overheadMs: overhead,
    ttftMs: outcome.ttftMs,
    usage: outcome.usage,
    error: outcome.error,
    errorCode: outcome.errorCode ?? null,
    attempts: call.meter.attempts.length > 1 || outcome.status >= 400 ? call.meter.attempts : null,
    reservation: call.meter.reservation,
    pricing: pricingOf(deps, call, outcome.model ?? call.model),
  });
  recordCallMetrics(deps, call, outcome, costMicros);
  deps.metrics.overhead.observe({ endpoint: call.endpoint }, overhead / 1000);
  if (outcome.errorCode) deps.metrics.errors.inc({ endpoint: call.endpoint, code: outcome.errorCode });
  if (call.trace) endCallTrace(call.trace, call, outcome, costMicros, overhead);
  if (deps.accessLog) {
    deps.accessLog.write({
      requestId: call.requestId, method: 'POST', path: call.endpoint, status: outcome.status, model: outcome.model ?? call.model, upstreamModel: outcome.upstreamModel,
      keyName: call.key.name, group: call.key.groupName, inputTokens: outcome.usage.inputTokens, outputTokens: outcome.usage.outputTokens, costMicros,
      latencyMs, ttftMs: outcome.ttftMs, overheadMs: overhead, errorCode: outcome.errorCode ?? null,
    });
  }
  if (outcome.usage.inputTokens > 0) deps.metrics.tokens.inc({ model: outcome.model ?? call.model, direction: 'input' }, outcome.usage.inputTokens);
  if (outcome.usage.outputTokens > 0) deps.metrics.tokens.inc({ model: outcome.model ?? call.model, direction: 'output' }, outcome.usage.outputTokens);
  return costMicros;
}

/** Cost per model and group, time to first token, failovers (labels: served models and configured groups only). */
function recordCallMetrics(deps: RelayDeps, call: RelayCall, outcome: CallOutcome, costMicros: number): void {
  const model = outcome.model ?? call.model;
  if (costMicros) deps.metrics.costMicros.inc({ model, group: call.key.groupName }, costMicros);
  if (outcome.ttftMs !== null && outcome.ttftMs > 0) deps.metrics.timeToFirstToken.observe({ model }, outcome.ttftMs / 1000);
  const attempts = call.meter.attempts;
  if (attempts.some((attempt, i) => i > 0 && attempt.channel !== attempts[i - 1]!.channel)) deps.metrics.failovers.inc({ model: call.model });
}

/** The prices of the model that answered: the requested one's from admission, a fallback's as in force now. */
function pricingOf(deps: RelayDeps, call: RelayCall, model: string): ModelPricing | undefined {
  return model === call.model ? call.meter.pricing : deps.state.current.pricing.get(model);
}

/** What a whole answer costs: the computation the recorder makes, for the answer's x-gateway-cost header. */
export function wholeCostMicros(deps: RelayDeps, call: RelayCall, model: string, usage: Usage): number {
  const pricing = pricingOf(deps, call, model);
  return pricing ? computeCostMicros(pricing, usage, call.key.groupRatioPpm) : 0;
}

/** Failures the relay has logged: the route's catch (record-refusal.ts) must not log them again as refusals. */
const recordedFailures = new WeakSet<object>();

/**
 * For calls that failed before any answer was committed: logged, reservation released, nothing charged.
 * Returns what to rethrow: the same error, now known as recorded (a thrown non-object is wrapped so it can be).
 */
export function recordFailure(deps: RelayDeps, call: RelayCall, thrown: unknown, status: number, errorCode: GatewayErrorCode | null, overhead?: number): object {
  const error = typeof thrown === 'object' && thrown !== null ? thrown : new Error(String(thrown));
  const outcome: CallOutcome = { status, usage: emptyUsage(), channelId: null, upstreamModel: null, ttftMs: null, error: error instanceof Error ? error.message : String(error), errorCode };
  if (overhead !== undefined) outcome.overheadMs = overhead;
  recordCall(deps, call, outcome);
  recordedFailures.add(error);
  return error;
}

/** Whether the relay already logged the call that failed with this error. */
export function isRecordedFailure(error: unknown): boolean {
  return typeof error === 'object' && error !== null && recordedFailures.has(error);
}
