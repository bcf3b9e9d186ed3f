// Chat in any inbound format: a channel speaking the client's format gets the passthrough hop (the identity
// case of the exchange), any other format the hop translated through the hub; one call can fail over
// between the two kinds. Both read usage through the format's contract and resolve it in the attempt.
import type { HubRequest } from '../hub/hub-request.ts';
import { estimateChatUsage } from '../metering/admission.ts';
import type { RelayDeps } from './relay-deps.ts';
import type { RelayCall, RelayResult } from './relay-types.ts';
import { relayEndpoint } from './relay-endpoint.ts';
import { passthroughChatHop } from './hops/passthrough-chat-hop.ts';
import { translatedChatHop } from './hops/translated-chat-hop.ts';
import { byChannelFormat } from './hops/by-channel-format.ts';
import { relayFormat } from '../formats/index.ts';

interface ChatRelayOptions {
  /** The client's request in the hub; lazily, because a passthrough channel needs no conversion. */
  hubRequest: () => HubRequest;
}

export function relayChat(deps: RelayDeps, call: RelayCall, options: ChatRelayOptions): Promise<RelayResult> {
  const client = relayFormat(call.inboundFormat)!;
  const passthrough = passthroughChatHop({ call, format: client, logger: deps.logger });
  // Read once: the translated hop turns channels down by it, and the reservation covers every answer.
  const answers = client.severalAnswers?.asked(call.body) ?? 1;
  const translated = translatedChatHop({ call, client, request: options.hubRequest, logger: deps.logger, imageFetchAllowPrivate: deps.imageFetchAllowPrivate, answersAsked: answers });
  // The reservation's output bound: the limit the body states, read by its format (every answer together),
  // else the model's own per answer.
  const stated = client.requestFacts.outputLimit(call.body);
  const estimate = stated === undefined ? estimateChatUsage(call.rawBody.length, null, answers) : estimateChatUsage(call.rawBody.length, stated);
  return relayEndpoint(deps, call, byChannelFormat(passthrough, translated), { estimate });
}
