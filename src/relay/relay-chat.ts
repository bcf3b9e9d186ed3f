// Chat from any inbound format: choose channels, then passthrough when the channel speaks the caller's
// format, otherwise translate through the hub.
import type { RelayDeps } from './relay-deps.ts';
import type { RelayCall, RelayResult } from './relay-types.ts';
import { resolveCandidates } from './resolve-candidates.ts';
import { relayOpenAIChatPassthrough } from './openai-chat-passthrough.ts';

export async function relayChat(deps: RelayDeps, call: RelayCall): Promise<RelayResult> {
  const candidates = resolveCandidates(deps.state.current.routing, call.key, call.model);
  return relayOpenAIChatPassthrough(deps, call, candidates);
}
