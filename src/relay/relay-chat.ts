// Chat from any inbound format: resolve the model and its fallbacks to channels, admit the call (price,
// limits, reservation), then run the attempts with the hop that fits the client's and channel's formats.
import { GatewayError } from '../gateway-errors.ts';
import { admitCall, estimateInputTokensFromBytes, isBillable } from '../metering/admission.ts';
import type { RelayDeps } from './relay-deps.ts';
import type { RelayCall, RelayResult } from './relay-types.ts';
import { resolveCandidates } from './resolve-candidates.ts';
import { recordFailure } from './record-call.ts';
import { runChatAttempts, type ModelRoute } from './chat-attempts.ts';
import { openAIChatPassthroughHop } from './hops/openai-chat-passthrough-hop.ts';

export async function relayChat(deps: RelayDeps, call: RelayCall, maxOutputTokens: number | null): Promise<RelayResult> {
  const snapshot = deps.state.current;
  const routes = modelRoutes(deps, call);
  const admission = await admitCall(snapshot, deps.accounting, deps.rateLimiter, {
    key: call.key,
    model: call.model,
    fallbackModels: routes.slice(1).map((route) => route.model),
    inputTokens: estimateInputTokensFromBytes(call.rawBody.length),
    maxOutputTokens,
  });
  call.meter.reservation = admission.reservation;
  call.meter.pricing = admission.pricing;
  try {
    return await runChatAttempts(deps, call, openAIChatPassthroughHop(call), routes);
  } catch (error) {
    // Whatever went wrong before an answer, the reservation is released and the failure logged.
    recordFailure(deps, call, error instanceof GatewayError ? error.status : 499, error instanceof Error ? error.message : String(error));
    throw error;
  }
}

/**
 * The requested model first, then the request's own `models` list (OpenRouter's field), then the
 * fallbacks the operator configured. Fallbacks the key may not use, or that nobody prices, are skipped;
 * the requested model's own errors (403, 404) go to the client.
 */
function modelRoutes(deps: RelayDeps, call: RelayCall): ModelRoute[] {
  const snapshot = deps.state.current;
  const chain = [call.model];
  const requested = call.body.models;
  if (Array.isArray(requested)) chain.push(...requested.filter((id): id is string => typeof id === 'string'));
  chain.push(...(JSON.parse(snapshot.models.get(call.model)?.fallbacks_json ?? '[]') as string[]));
  const routes: ModelRoute[] = [{ model: call.model, channels: resolveCandidates(snapshot.routing, call.key, call.model) }];
  for (const model of new Set(chain.slice(1))) {
    if (model === call.model || !isBillable(snapshot, model)) continue;
    try {
      routes.push({ model, channels: resolveCandidates(snapshot.routing, call.key, model) });
    } catch {
      // A fallback this key cannot use is simply not part of its chain.
    }
  }
  return routes;
}
