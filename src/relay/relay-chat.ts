// Chat in any inbound format: a channel speaking the client's format gets a passthrough hop, any other
// format a hop translated through the hub; one call can fail over between the two kinds.
import type { FormatConverters } from '../hub/hub-format.ts';
import type { HubRequest } from '../hub/hub-request.ts';
import { estimateChatUsage } from '../metering/admission.ts';
import type { RelayDeps } from './relay-deps.ts';
import type { RelayCall, RelayResult } from './relay-types.ts';
import type { RelayHop } from './relay-hop.ts';
import { relayEndpoint } from './relay-endpoint.ts';
import { openAIChatPassthroughHop } from './hops/openai-chat-passthrough-hop.ts';
import { sameFormatPassthroughHop } from './hops/same-format-passthrough-hop.ts';
import { translatedChatHop } from './hops/translated-chat-hop.ts';
import { byChannelFormat } from './hops/by-channel-format.ts';
import { relayFormat } from '../formats/index.ts';

export interface ChatRelayOptions {
  /** The client's request in the hub; lazily, because a passthrough channel needs no conversion. */
  hubRequest: () => HubRequest;
  maxOutputTokens: number | null;
}

export function relayChat(deps: RelayDeps, call: RelayCall, options: ChatRelayOptions): Promise<RelayResult> {
  const client = relayFormat(call.inboundFormat)!;
  // A client format whose streams report usage only when asked (OpenAI's stream_options) is passed through
  // by the hop that asks for it; any other by the hop that watches the stream unchanged.
  const passthrough: RelayHop = client.streamUsageOption !== null
    ? openAIChatPassthroughHop(call)
    : sameFormatPassthroughHop({ call, format: client, logger: deps.logger });
  // Read once: the translated hop turns channels down by it, and the reservation covers every answer.
  const answers = client.severalAnswers?.asked(call.body) ?? 1;
  const translated = translatedChatHop({ call, client: client as FormatConverters, request: options.hubRequest, logger: deps.logger, imageFetchAllowPrivate: deps.imageFetchAllowPrivate, answersAsked: answers });
  return relayEndpoint(deps, call, byChannelFormat(passthrough, translated), { estimate: estimateChatUsage(call.rawBody.length, options.maxOutputTokens, answers) });
}
