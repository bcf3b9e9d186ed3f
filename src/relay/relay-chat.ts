// OpenAI chat: passthrough to OpenAI-type channels through the generic endpoint relay.
import { estimateChatUsage } from '../metering/admission.ts';
import type { RelayDeps } from './relay-deps.ts';
import type { RelayCall, RelayResult } from './relay-types.ts';
import { relayEndpoint } from './relay-endpoint.ts';
import { openAIChatPassthroughHop } from './hops/openai-chat-passthrough-hop.ts';

export function relayChat(deps: RelayDeps, call: RelayCall, maxOutputTokens: number | null): Promise<RelayResult> {
  return relayEndpoint(deps, call, openAIChatPassthroughHop(call), { estimate: estimateChatUsage(call.rawBody.length, maxOutputTokens) });
}
