// Chat from any inbound format: choose channels, admit the call (price, limits, reservation), then
// passthrough when the channel speaks the caller's format, otherwise translate through the hub.
import { GatewayError } from '../gateway-errors.ts';
import { admitCall, estimateInputTokensFromBytes } from '../metering/admission.ts';
import type { RelayDeps } from './relay-deps.ts';
import type { RelayCall, RelayResult } from './relay-types.ts';
import { resolveCandidates } from './resolve-candidates.ts';
import { relayOpenAIChatPassthrough } from './openai-chat-passthrough.ts';
import { recordFailure } from './record-call.ts';

export async function relayChat(deps: RelayDeps, call: RelayCall, maxOutputTokens: number | null): Promise<RelayResult> {
  const snapshot = deps.state.current;
  const candidates = resolveCandidates(snapshot.routing, call.key, call.model);
  const admission = await admitCall(snapshot, deps.accounting, deps.rateLimiter, {
    key: call.key,
    model: call.model,
    inputTokens: estimateInputTokensFromBytes(call.rawBody.length),
    maxOutputTokens,
  });
  call.meter.reservation = admission.reservation;
  call.meter.pricing = admission.pricing;
  try {
    return await relayOpenAIChatPassthrough(deps, call, candidates);
  } catch (error) {
    // Whatever went wrong before an answer, the reservation is released and the failure logged.
    recordFailure(deps, call, error instanceof GatewayError ? error.status : 499, error instanceof Error ? error.message : String(error));
    throw error;
  }
}
