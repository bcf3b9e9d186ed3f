// Records the outcome of a relayed call exactly once: usage log, charge, token counters and metrics.
import type { Usage } from '../metering/usage.ts';
import { emptyUsage } from '../metering/usage.ts';
import { computeCostMicros, type ModelPricing } from '../metering/pricing.ts';
import type { RelayDeps } from './relay-deps.ts';
import type { RelayCall } from './relay-types.ts';

export interface CallOutcome {
  /** The public id of the model that answered (a fallback may answer); defaults to the requested one. */
  model?: string;
  status: number;
  usage: Usage;
  channelId: number | null;
  upstreamModel: string | null;
  ttftMs: number | null;
  error: string | null;
  /** The gateway error code (GW_ERR_…) when the call failed with one. */
  errorCode?: string | null;
}

export function recordCall(deps: RelayDeps, call: RelayCall, outcome: CallOutcome): void {
  // A second record of the same call (a stream closing after an error was recorded) must not charge twice.
  if (call.meter.recorded) return;
  call.meter.recorded = true;
  call.meter.costMicros = deps.recorder.record({
    requestId: call.requestId,
    key: call.key,
    model: outcome.model ?? call.model,
    upstreamModel: outcome.upstreamModel,
    channelId: outcome.channelId,
    inboundFormat: call.inboundFormat,
    endpoint: call.endpoint,
    stream: call.stream,
    status: outcome.status,
    latencyMs: performance.now() - call.startedAt,
    ttftMs: outcome.ttftMs,
    usage: outcome.usage,
    error: outcome.error,
    errorCode: outcome.errorCode ?? null,
    attempts: call.meter.attempts.length > 1 || outcome.status >= 400 ? call.meter.attempts : null,
    reservation: call.meter.reservation,
    pricing: pricingOf(deps, call, outcome.model ?? call.model),
  });
  recordCallMetrics(deps, call, outcome);
  if (outcome.usage.inputTokens > 0) deps.metrics.tokens.inc({ model: outcome.model ?? call.model, direction: 'input' }, outcome.usage.inputTokens);
  if (outcome.usage.outputTokens > 0) deps.metrics.tokens.inc({ model: outcome.model ?? call.model, direction: 'output' }, outcome.usage.outputTokens);
}

/** Cost per model and group, time to first token, failovers (labels: served models and configured groups only). */
function recordCallMetrics(deps: RelayDeps, call: RelayCall, outcome: CallOutcome): void {
  const model = outcome.model ?? call.model;
  if (call.meter.costMicros) deps.metrics.costMicros.inc({ model, group: call.key.groupName }, call.meter.costMicros);
  if (outcome.ttftMs !== null && outcome.ttftMs > 0) deps.metrics.timeToFirstToken.observe({ model }, outcome.ttftMs / 1000);
  const attempts = call.meter.attempts;
  if (attempts.some((attempt, i) => i > 0 && attempt.channel !== attempts[i - 1]!.channel)) deps.metrics.failovers.inc({ model: call.model });
}

/** The prices of the model that answered: the requested one's from admission, a fallback's as in force now. */
export function pricingOf(deps: RelayDeps, call: RelayCall, model: string): ModelPricing | undefined {
  return model === call.model ? call.meter.pricing : deps.state.current.pricing.get(model);
}

/** What a whole answer costs: the computation the recorder makes, for the answer's x-gateway-cost header. */
export function wholeCostMicros(deps: RelayDeps, call: RelayCall, model: string, usage: Usage): number {
  const pricing = pricingOf(deps, call, model);
  return pricing ? computeCostMicros(pricing, usage, call.key.groupRatioPpm) : 0;
}

/** For calls that failed before any upstream answered: logged, reservation released, nothing charged. */
export function recordFailure(deps: RelayDeps, call: RelayCall, status: number, error: string, errorCode: string | null = null): void {
  recordCall(deps, call, { status, usage: emptyUsage(), channelId: null, upstreamModel: null, ttftMs: null, error, errorCode });
}
