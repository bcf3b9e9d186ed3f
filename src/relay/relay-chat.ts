// Chat in any inbound format: a channel speaking the client's format gets the passthrough hop (the identity
// case of the exchange), any other format the hop translated through the hub; one call can fail over
// between the two kinds. Both read usage through the format's contract and resolve it in the attempt.
// What the gateway changed on the way (for the answering channel) is named in x-gateway-warnings.
import { estimateChatUsage } from '../metering/admission.ts';
import type { RelayDeps } from './relay-deps.ts';
import type { RelayCall, RelayResult } from './relay-types.ts';
import { relayEndpoint } from './relay-endpoint.ts';
import { passthroughChatHop } from './hops/passthrough-chat-hop.ts';
import { translatedChatHop, type ClientRequestInHub } from './hops/translated-chat-hop.ts';
import { byChannelFormat } from './hops/by-channel-format.ts';
import { ClientWarnings } from './client-warnings.ts';
import { relayFormat } from '../formats/index.ts';
import { hasModelChain, modelSupport } from '../config/model-support.ts';
import type { FormatConverters } from '../hub/hub-format.ts';

interface ChatRelayOptions {
  /** The client's request in the hub; lazily, because a passthrough channel needs no conversion. */
  hubRequest: () => ClientRequestInHub;
  /** What the gateway changed in the body a channel of the client's own format gets, one line each. */
  passthroughChanges?: readonly string[];
}

export async function relayChat(deps: RelayDeps, given: RelayCall, givenOptions: ChatRelayOptions): Promise<RelayResult> {
  const client = relayFormat(given.inboundFormat)!;
  const warnings = new ClientWarnings();
  const { call, options } = fittedToModel(deps, client, given, givenOptions, warnings);
  const passthrough = passthroughChatHop({ call, format: client, logger: deps.logger, warnings, ...(options.passthroughChanges ? { changes: options.passthroughChanges } : {}) });
  // Read once: the translated hop turns channels down by it, and the reservation covers every answer.
  const answers = client.severalAnswers?.asked(call.body) ?? 1;
  const translated = translatedChatHop({ call, client, request: options.hubRequest, logger: deps.logger, imageFetchAllowPrivate: deps.imageFetchAllowPrivate, answersAsked: answers, warnings });
  // The reservation's output bound: the limit the body states, read by its format (every answer together),
  // else the model's own per answer.
  const stated = client.requestFacts.outputLimit(call.body);
  const estimate = stated === undefined ? estimateChatUsage(call.rawBody.length, null, answers) : estimateChatUsage(call.rawBody.length, stated);
  return warnings.onto(await relayEndpoint(deps, call, byChannelFormat(passthrough, translated), { estimate }));
}

/**
 * The call fitted to what its model's entry declares (a model entry's `capabilities`, read once per entry):
 * what the model lacks is left out for every channel and named in the header, or refused when the model is
 * strict. A model that declares nothing costs one map look-up.
 */
function fittedToModel(deps: RelayDeps, client: FormatConverters, call: RelayCall, options: ChatRelayOptions, warnings: ClientWarnings): { call: RelayCall; options: ChatRelayOptions } {
  const support = modelSupport(deps.state.current.models.get(call.model));
  if (!support.declared || !client.fitToModel) return { call, options };
  // The prompt's estimate is counted only when its length in bytes does not settle the context window;
  // a call with other models to go to leaves the window to the upstream, whose refusal moves it on.
  const prompt = hasModelChain(support, call.body) ? null : { bound: call.rawBody.length, tokens: () => client.requestFacts.promptTokens(call.body) };
  const fitted = client.fitToModel(call.body, call.model, support, prompt);
  if (fitted.body === call.body) return { call, options };
  for (const warning of fitted.warnings) warnings.add(warning);
  const body = fitted.body;
  // The hub request is read from the fitted body, so a translated channel gets the same changes.
  let inHub: ReturnType<ChatRelayOptions['hubRequest']> | undefined;
  return {
    call: { ...call, body, rawBody: Buffer.from(JSON.stringify(body)) },
    options: { ...options, hubRequest: () => (inHub ??= client.requestToHub(body, { model: call.model, stream: call.stream })) },
  };
}
