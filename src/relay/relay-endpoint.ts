// Any relayed endpoint: resolve the model and its fallbacks to channels, admit the call (price, limits,
// reservation), then run the attempts with the endpoint's hop. Chat, completions, embeddings, images,
// audio, rerank and responses all come through here.
import { GatewayError, gatewayError } from '../gateway-errors.ts';
import type { Model } from '../db/repositories/models.ts';
import type { GatewaySnapshot } from '../gateway-state.ts';
import type { RoutedChannel } from '../routing/routing-table.ts';
import { admitCall, isBillable } from '../metering/admission.ts';
import type { Usage } from '../metering/usage.ts';
import type { RelayDeps } from './relay-deps.ts';
import type { RelayCall, RelayResult } from './relay-types.ts';
import type { RelayHop } from './relay-hop.ts';
import { resolveCandidates } from './resolve-candidates.ts';
import { sessionOf, withSessionAffinity } from '../routing/session-affinity.ts';
import { recordFailure } from './record-call.ts';
import { runAttempts, type ModelRoute } from './attempts.ts';
import { OVERHEAD_HEADER, overheadHeaderValue, overheadMs } from './upstream-wait.ts';
import { endRefusedTrace, startCallTrace } from './call-tracing.ts';

interface EndpointOptions {
  /** What to reserve for, per candidate model. */
  estimate(model: Model | undefined): Usage;
}

export async function relayEndpoint(deps: RelayDeps, call: RelayCall, hop: RelayHop, options: EndpointOptions): Promise<RelayResult> {
  const snapshot = deps.state.current;
  const routes = modelRoutes(deps, call, hop);
  const trace = deps.tracer ? startCallTrace(deps.tracer, call) : null;
  const admittedFrom = trace ? performance.now() : 0;
  let admission;
  try {
    admission = await admitCall(snapshot, deps.accounting, deps.rateLimiter, {
      key: call.key,
      model: call.model,
      fallbackModels: routes.length > 1 ? routes.slice(1).map((route) => route.model) : undefined,
      estimate: options.estimate,
    });
  } catch (error) {
    // Refused (price, limits, money): the route logs the refusal; the trace ends here.
    if (trace) endRefusedTrace(trace, call, admittedFrom, error);
    throw error;
  }
  if (trace) trace.admission(admittedFrom, null);
  call.meter.reservation = admission.reservation;
  call.meter.pricing = admission.pricing;
  try {
    // The answer carries its cost for the x-gateway-cost header (attempts-first-byte.ts derives it).
    return await runAttempts(deps, call, hop, routes);
  } catch (error) {
    // No answer was committed (runAttempts throws only before one is): this is the call's one record. The
    // error goes on marked as recorded, so the route does not log it again as a refusal.
    const status = error instanceof GatewayError ? error.status : 499;
    const code = error instanceof GatewayError ? error.gatewayCode : call.signal.aborted ? 'GW_ERR_CLIENT_GONE' : 'GW_ERR_INTERNAL';
    // The error answer carries the gateway's own time too: all of the call's but its upstream waits.
    const overhead = overheadMs(call.startedAt, performance.now(), call.meter.upstreamWaitMs);
    if (error instanceof GatewayError && !Object.isFrozen(error.headers)) error.headers[OVERHEAD_HEADER] = overheadHeaderValue(overhead);
    throw recordFailure(deps, call, error, status, code, overhead);
  }
}

/**
 * The requested model first, then the request's own `models` list (OpenRouter's field), then the
 * fallbacks the operator configured. Fallbacks the key may not use, or that nobody prices, are skipped;
 * the requested model's own errors (403, 404) go to the client.
 */
function modelRoutes(deps: RelayDeps, call: RelayCall, hop: RelayHop): ModelRoute[] {
  const snapshot = deps.state.current;
  const chain: string[] = [];
  const requested = call.body.models;
  if (Array.isArray(requested)) chain.push(...requested.filter((id): id is string => typeof id === 'string'));
  const fallbacks = snapshot.models.get(call.model)?.fallbacks;
  if (fallbacks && fallbacks.length > 0) chain.push(...fallbacks);
  const routes: ModelRoute[] = [{ model: call.model, channels: usableChannels(snapshot, call, hop, call.model) }];
  if (routes[0]!.channels.length === 0) {
    const refusal = hop.refusal?.() ?? null;
    if (refusal !== null) throw refusal;
    throw gatewayError('GW_ERR_UNSUPPORTED_ENDPOINT', { message: `The model '${call.model}' is not served by a channel that supports ${call.endpoint}.`, param: 'model', code: 'unsupported_endpoint' });
  }
  // Most calls have no fallback chain: no Set for nothing.
  if (chain.length === 0) return routes;
  for (const model of new Set(chain)) {
    if (model === call.model || !isBillable(snapshot, model)) continue;
    try {
      const channels = usableChannels(snapshot, call, hop, model);
      if (channels.length > 0) routes.push({ model, channels });
    } catch {
      // A fallback this key cannot use is simply not part of its chain.
    }
  }
  return routes;
}

/**
 * The channels that may serve this key's call to `model` and that the hop supports, in routing order.
 * Filtered in place: resolveCandidates returns an array of this call's own (a function, not a closure in
 * modelRoutes, so the call's locals need no context object).
 */
function usableChannels(snapshot: GatewaySnapshot, call: RelayCall, hop: RelayHop, model: string): RoutedChannel[] {
  // A coding agent's session stays on the channel and key of its first call (its prompt cache is there).
  const channels = withSessionAffinity(resolveCandidates(snapshot.routing, call.key, model), sessionOf(call), model);
  let kept = 0;
  for (let i = 0; i < channels.length; i++) {
    const channel = channels[i]!;
    if (hop.supports(channel)) channels[kept++] = channel;
  }
  channels.length = kept;
  return channels;
}
