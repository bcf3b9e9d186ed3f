// POST /v1/responses: OpenAI's Responses API. Passed through to OpenAI-type channels (streamed events
// unchanged, usage read from the final `response.completed` event); translated through the hub to chat-type
// channels (Anthropic, Gemini, chat-only OpenAI-compatible servers), whose answers the gateway keeps itself
// when `store` is not false, so previous_response_id and item_reference work on every channel type.
import { z } from 'zod';
import { estimateChatUsage } from '../metering/admission.ts';
import { parseBody } from '../validate-request.ts';
import { relayEndpoint } from '../relay/relay-endpoint.ts';
import { openAIJsonPassthroughHop } from '../relay/hops/openai-json-passthrough-hop.ts';
import type { RelayCall, RelayResult } from '../relay/relay-types.ts';
import type { RelayDeps } from '../relay/relay-deps.ts';
import type { RelayHop, UpstreamCallShape } from '../relay/relay-hop.ts';
import type { AttemptUsage } from '../relay/attempt-usage.ts';
import { invalidRequest } from '../gateway-errors.ts';
import type { RoutedChannel } from '../routing/routing-table.ts';
import type { PreparedCall } from '../relay/prepared-call.ts';
import { translatedChatHop } from '../relay/hops/translated-chat-hop.ts';
import { byChannelFormat } from '../relay/hops/by-channel-format.ts';
import { openaiResponsesFormat } from '../formats/openai-responses/index.ts';
import { outputItemIdsOf, responseIdOf, responsesPassthroughStream, wholeResponsesReading, wholeResponsesUsage, type PassthroughCall } from '../responses/passthrough-answers.ts';
import { rebuiltForUpstream, resolveResponsesState, type ResolvedResponsesState } from '../responses/resolve-responses-state.ts';
import { keepingClient, mintResponseId } from '../responses/keeping-client.ts';
import { noticingAnswers } from '../responses/answering-channel.ts';
import { ClientWarnings } from '../relay/client-warnings.ts';
import { fitResponsesRequestToModel, responsesContextFit } from '../formats/openai-responses/openai-responses-model-support.ts';
import { withoutGatewayReasoning } from '../formats/openai-responses/openai-responses-reasoning-seal.ts';
import { hasModelChain, modelSupport } from '../config/model-support.ts';

const responsesSchema = z.looseObject({
  model: z.string().min(1),
  input: z.union([z.string(), z.array(z.unknown())]).optional(),
  stream: z.boolean().nullish(),
  max_output_tokens: z.number().int().min(1).nullish(),
  temperature: z.number().min(0).max(2).nullish(),
  top_p: z.number().min(0).max(1).nullish(),
  previous_response_id: z.string().nullish(),
  store: z.boolean().nullish(),
});

export function prepareResponses(raw: unknown): PreparedCall {
  const parsed = parseBody(responsesSchema, raw);
  refuseConversation(parsed);
  return {
    model: parsed.model,
    stream: parsed.stream === true,
    body: parsed,
    relay: async (deps, call) => {
      // What the model's entry says it does not support is dropped (named in x-gateway-warnings) or refused.
      const support = modelSupport(deps.state.current.models.get(call.model));
      const fitted = support.declared ? fitResponsesRequestToModel(parsed, call.model, support, null) : { body: parsed, warnings: [] };
      let body = fitted.body as typeof parsed;
      if (body !== parsed) call.body = body;
      // Names of earlier state are checked against their owner, and what the gateway keeps is put back in.
      const state = await resolveResponsesState(deps.responseOwners, call.key, body);
      const size = state.rebuilt ? Buffer.byteLength(JSON.stringify(state.rebuilt.input ?? '')) + call.rawBody.length : call.rawBody.length;
      // The context window, on the conversation as it will be sent.
      if (support.contextWindow !== null && state.previous?.keptBy !== 'upstream' && !hasModelChain(support, body)) {
        const sent = state.rebuilt ?? body;
        const context = responsesContextFit(sent, call.model, support, { bound: size, tokens: () => openaiResponsesFormat.requestFacts.promptTokens(sent) });
        if (context) {
          body = { ...body, max_output_tokens: context.maxOutputTokens };
          if (state.rebuilt) state.rebuilt = { ...state.rebuilt, max_output_tokens: context.maxOutputTokens };
          call.body = body;
          fitted.warnings.push(...context.warnings);
        }
      }
      // Usage the upstream leaves unreported is counted from what was sent: the rebuilt conversation.
      if (state.rebuilt) call.body = state.rebuilt;
      const store = body.store !== false;
      // To an OpenAI channel without the reasoning the gateway sealed for another provider.
      const forOpenAI = withoutGatewayReasoning(body);
      const passthrough = passthroughHop(deps, call, state, store, forOpenAI !== parsed ? forOpenAI : null);
      const keeper = store ? keptAnswers(deps, call, state) : null;
      // What the model's entry made the gateway change holds everywhere; what a translation leaves out (hosted
      // web search where the provider has none) is told when a translated channel answers.
      const warnings = new ClientWarnings();
      for (const warning of fitted.warnings) warnings.add(warning);
      const translated = translatedChatHop({
        call,
        client: keeper?.client ?? openaiResponsesFormat,
        request: () => {
          if (state.previous?.keptBy === 'upstream') throw heldUpstream();
          return openaiResponsesFormat.requestToHub(state.rebuilt ?? body);
        },
        logger: deps.logger,
        imageFetchAllowPrivate: deps.imageFetchAllowPrivate,
        warnings,
      });
      const either = byChannelFormat(passthrough, keeper ? noticingAnswers(translated, (channel) => keeper.answeredBy(channel)) : translated);
      // A conversation an upstream holds is continued on that channel while it serves the model.
      const previous = state.previous;
      const homeChannel = previous?.keptBy === 'upstream' && previous.channelId !== null ? deps.state.current.routing.channel(previous.channelId) : undefined;
      const home = homeChannel?.models.has(call.model) ? homeChannel.id : null;
      const hop = home === null ? either : onlyOnChannel(either, home);
      const result = await relayEndpoint(deps, call, hop, { estimate: estimateChatUsage(size, body.max_output_tokens ?? null) });
      const shown = warnings.onto(result);
      return keeper ? keeper.afterSaving(shown) : shown;
    },
  };
}

/**
 * A stored conversation (`conversation`) lives upstream under an id the gateway never sees issued, so it
 * cannot tell whose it is: refused with a 400 naming the field. previous_response_id is the way to chain.
 */
function refuseConversation(body: Record<string, unknown>): void {
  if (body.conversation !== undefined && body.conversation !== null) {
    throw invalidRequest("'conversation' is not supported through this gateway: it cannot tell whose stored conversations are whose. Chain turns with previous_response_id, or send the whole conversation in 'input'.", 'conversation', 'unsupported_parameter');
  }
}

/** A conversation an OpenAI-type channel holds cannot be read back, so no other provider can continue it. */
const heldUpstream = () => invalidRequest("previous_response_id names a response kept by an OpenAI-type channel, which holds the conversation; this model is served by another provider. Continue it with a model of that channel, or send the whole conversation in 'input'.", 'previous_response_id');

/** To an OpenAI-type channel: the client's bytes, or the rebuilt body; ids of the answer recorded with their owner. */
function passthroughHop(deps: RelayDeps, call: RelayCall, state: ResolvedResponsesState, store: boolean, fitted: Record<string, unknown> | null): RelayHop {
  const owners = deps.responseOwners;
  const remember = (id: unknown, channel: RoutedChannel, itemIds: () => string[]) => {
    if (typeof id !== 'string') return;
    owners.remember({ id, userId: call.key.userId, keyId: call.key.id, channelId: channel.id, model: call.model });
    if (store) owners.items.remember(id, call.key.userId, itemIds());
  };
  // The client's bytes unless the gateway changed the body: a rebuilt conversation, or one fitted to the model.
  const rebuilt = state.rebuilt ? withoutGatewayReasoning(rebuiltForUpstream(state.rebuilt, state.fromStore)) : fitted;
  const watched: PassthroughCall = { body: call.body, requestId: call.requestId, logger: deps.logger };
  return openAIJsonPassthroughHop(call, {
    operation: 'responses',
    // max_output_tokens of the client's body: a rebuilt body (previous_response_id) keeps it too.
    usage: (text, attempt) => wholeResponsesUsage(text, watched, attempt),
    reading: (text) => wholeResponsesReading(text, watched),
    transform: (text, channel) => {
      remember(responseIdOf(text), channel, () => outputItemIdsOf(text));
      return text;
    },
    ...(rebuilt ? { body: (upstreamModel: string) => JSON.stringify({ ...withoutFallbacks(rebuilt), model: upstreamModel }) } : {}),
    stream: (channel, attempt) => {
      let id: unknown;
      return responsesPassthroughStream(watched, attempt, { onResponseId: (seen) => (id = seen), onItemIds: (ids) => remember(id, channel, () => ids) });
    },
    // A turn of the gateway's WebSocket mode goes over the upstream's own WebSocket where the channel speaks it.
    ...(call.responsesSockets ? { socket: (channel: RoutedChannel) => (channel.responsesWebSocket === true ? call.responsesSockets! : null) } : {}),
  });
}

function withoutFallbacks(body: Record<string, unknown>): Record<string, unknown> {
  const { models: _fallbackList, ...rest } = body;
  return rest;
}

/**
 * Keeping a translated answer: the client converters mint its id and hand over the finished Response,
 * which is saved with this turn's input; the answer's last bytes wait for the save, so the next turn (on
 * any instance) finds it.
 */
function keptAnswers(deps: RelayDeps, call: RelayCall, state: ResolvedResponsesState) {
  const owners = deps.responseOwners;
  const id = mintResponseId();
  let channelId: number | null = null;
  let saving: Promise<void> | null = null;
  const save = (response: Record<string, unknown>) => owners.kept.save({
    id, userId: call.key.userId, keyId: call.key.id, channelId, model: call.model,
    previousResponseId: state.previous?.id ?? null, input: state.turnInput, response,
  }).then(
    (kept) => (kept ? owners.rememberKept(id, call.key.userId) : deps.logger.warn({ requestId: call.requestId, responseId: id }, 'response over the size cap for kept responses; not kept')),
    (error: unknown) => deps.logger.error({ err: error, requestId: call.requestId, responseId: id }, 'keeping a response failed; it cannot be continued'),
  );
  const client = keepingClient(openaiResponsesFormat, id, {
    previousResponseId: state.previous?.id ?? null,
    onFinished: (response) => {
      if (response.status === 'failed') return;
      saving ??= save(response);
    },
  });
  return {
    client,
    /** Notes which channel answered, for the record. */
    answeredBy(channel: RoutedChannel) {
      channelId = channel.id;
    },
    async afterSaving(result: RelayResult): Promise<RelayResult> {
      if (result.kind === 'buffer') {
        if (saving) await saving;
        return result;
      }
      const body = result.body;
      return { ...result, body: (async function* () {
        for await (const chunk of body) {
          if (saving) await saving;
          yield chunk;
        }
      })() };
    },
  };
}

/**
 * The hop serving only the channel that holds the conversation. Delegates member by member: a hop can be a
 * class instance (by-channel-format.ts), whose methods a spread would not copy.
 */
function onlyOnChannel(hop: RelayHop, channelId: RoutedChannel['id']): RelayHop {
  return {
    supports: (channel) => channel.id === channelId && hop.supports(channel),
    request: (channel, upstreamModel) => hop.request(channel, upstreamModel),
    whole: (text, channel, sent, usage) => hop.whole(text, channel, sent, usage),
    error: (channel, status, text, headers) => hop.error(channel, status, text, headers),
    ...(hop.stream ? { stream: (channel: RoutedChannel, sent: UpstreamCallShape, usage: AttemptUsage) => hop.stream!(channel, sent, usage) } : {}),
    ...(hop.continuation ? { continuation: (deliveredText: string) => hop.continuation!(deliveredText) } : {}),
    ...(hop.passBytes ? { passBytes: hop.passBytes } : {}),
  };
}
