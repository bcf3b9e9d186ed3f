// POST /v1/responses: OpenAI's Responses API. Passed through to OpenAI-type channels (streamed events
// unchanged, usage read from the final `response.completed` event); translated through the hub to chat-type
// channels (Anthropic, Gemini), where what needs OpenAI's server-side state is refused with a clear 400.
import type { EventSourceMessage } from 'eventsource-parser';
import { z } from 'zod';
import type { Usage } from '../metering/usage.ts';
import type { HubUsage } from '../hub/hub-response.ts';
import { estimateChatUsage } from '../metering/admission.ts';
import { estimateHubResponseTokens, estimatePromptTokens, estimateTextTokens } from '../metering/estimate-tokens.ts';
import { resolveUsage } from '../metering/resolve-usage.ts';
import { readUsageObjectFromTail } from '../metering/read-usage-from-tail.ts';
import { parseBody } from '../validate-request.ts';
import { relayEndpoint } from '../relay/relay-endpoint.ts';
import { openAIJsonPassthroughHop } from '../relay/hops/openai-json-passthrough-hop.ts';
import { MalformedEventError, type StreamConverter } from '../relay/relay-hop.ts';
import { formatSseEvent } from '../relay/sse-pump.ts';
import type { RelayCall } from '../relay/relay-types.ts';
import { invalidRequest, previousResponseNotFound, type GatewayError } from '../gateway-errors.ts';
import type { RoutedChannel } from '../routing/routing-table.ts';
import type { PreparedCall } from '../relay/prepared-call.ts';
import { translatedChatHop } from '../relay/hops/translated-chat-hop.ts';
import { byChannelFormat } from '../relay/hops/by-channel-format.ts';
import { openaiResponsesFormat } from '../formats/openai-responses/index.ts';

const responsesSchema = z.looseObject({
  model: z.string().min(1),
  input: z.union([z.string(), z.array(z.unknown())]).optional(),
  stream: z.boolean().nullish(),
  max_output_tokens: z.number().int().min(1).nullish(),
  temperature: z.number().min(0).max(2).nullish(),
  top_p: z.number().min(0).max(1).nullish(),
  previous_response_id: z.string().nullish(),
});

export function prepareResponses(raw: unknown): PreparedCall {
  const body = parseBody(responsesSchema, raw);
  refuseUnattributedState(body);
  return {
    model: body.model,
    stream: body.stream === true,
    body,
    relay: async (deps, call) => {
      // A previous response belongs to one user: anyone else's id, or one never relayed, is unknown here.
      const previous = body.previous_response_id ?? null;
      const owner = previous === null ? null : await deps.responseOwners.lookup(previous);
      if (previous !== null && (!owner || owner.userId !== call.key.userId)) throw previousResponseNotFound(previous);
      // The conversation lives on the channel that answered it: continue it there while that channel serves.
      const homeChannel = owner?.channelId != null ? deps.state.current.routing.channel(owner.channelId) : undefined;
      const home = homeChannel?.models.has(call.model) ? homeChannel.id : null;
      const remember = (id: unknown, channel: RoutedChannel) => {
        if (typeof id === 'string') deps.responseOwners.remember({ id, userId: call.key.userId, keyId: call.key.id, channelId: channel.id, model: call.model });
      };
      const passthrough = openAIJsonPassthroughHop(call, {
        operation: 'responses',
        usage: (text) => resolveUsage(openaiResponsesFormat.usageToHub(readUsageObjectFromTail(text)), { prompt: () => estimatePromptTokens(body), output: () => wholeOutputTokens(text) }),
        transform: (text, channel) => {
          remember(responseIdOf(text), channel);
          return text;
        },
        stream: (channel) => responsesPassthroughStream(call, (id) => remember(id, channel)),
      });
      const translated = translatedChatHop({
        call,
        client: openaiResponsesFormat,
        request: () => openaiResponsesFormat.requestToHub(body).request,
        logger: deps.logger,
        imageFetchAllowPrivate: deps.imageFetchAllowPrivate,
      });
      const either = byChannelFormat(passthrough, translated);
      const hop = home === null ? either : { ...either, supports: (channel: RoutedChannel) => channel.id === home && either.supports(channel) };
      return relayEndpoint(deps, call, hop, { estimate: estimateChatUsage(call.rawBody.length, body.max_output_tokens ?? null) });
    },
  };
}

/**
 * Upstream state the gateway cannot attribute to a user: a stored conversation (`conversation`) and stored
 * items fetched by id (`item_reference`). All users reach the upstream with the same channel credentials,
 * so relaying these would let anyone who learns an id read another user's conversation. Refused with a 400
 * naming the field; previous_response_id, whose owners the gateway records, is the supported way to chain.
 */
function refuseUnattributedState(body: { conversation?: unknown; input?: unknown }): void {
  if (body.conversation !== undefined && body.conversation !== null) {
    throw invalidRequest("'conversation' is not supported through this gateway: it cannot tell whose stored conversations are whose. Chain turns with previous_response_id, or send the whole conversation in 'input'.", 'conversation', 'unsupported_parameter');
  }
  if (!Array.isArray(body.input)) return;
  body.input.forEach((item, i) => {
    if (item && typeof item === 'object' && (item as { type?: unknown }).type === 'item_reference') {
      throw invalidRequest(`Input items of type 'item_reference' are not supported through this gateway: it cannot tell whose stored items are whose. Send the item itself, or chain turns with previous_response_id.`, `input[${i}]`, 'unsupported_parameter');
    }
  });
}

const FINAL_EVENTS = new Set(['response.completed', 'response.failed', 'response.incomplete']);

/**
 * The id of a whole Responses answer. `id` comes first in OpenAI's object, so the head usually has it;
 * otherwise the body is parsed (answers are bounded by the relay's body limit).
 */
export function responseIdOf(text: string): string | null {
  const head = /^\s*\{\s*"id"\s*:\s*"([^"\\]{1,256})"/.exec(text.slice(0, 400));
  if (head) return head[1]!;
  try {
    const parsed = JSON.parse(text) as { id?: unknown };
    return typeof parsed.id === 'string' ? parsed.id : null;
  } catch {
    return null;
  }
}

/** Output tokens of a whole Responses answer (text, reasoning, function calls), read through the format. */
function wholeOutputTokens(text: string): number {
  try {
    return estimateHubResponseTokens(openaiResponsesFormat.responseToHub(JSON.parse(text)));
  } catch {
    return 0;
  }
}

/** Deltas that are output: the answer text, reasoning (full or summarised) and function-call arguments. */
const OUTPUT_DELTAS = new Set(['response.output_text.delta', 'response.reasoning_text.delta', 'response.reasoning_summary_text.delta', 'response.function_call_arguments.delta', 'response.refusal.delta']);

function responsesPassthroughStream(call: RelayCall, onResponseId: (id: unknown) => void): StreamConverter {
  let usage: HubUsage | null = null;
  let deliveredText = '';
  let otherOutput = '';
  let toolCalls = false;
  // The error event that ends a failed stream continues the upstream's numbering.
  let nextSequence = 0;
  return {
    event(event: EventSourceMessage) {
      let parsed: { type?: string; delta?: unknown; sequence_number?: unknown; response?: { id?: unknown; usage?: unknown } };
      try {
        parsed = JSON.parse(event.data) as typeof parsed;
      } catch {
        throw new MalformedEventError(`not JSON: ${event.data.slice(0, 80)}`);
      }
      const type = parsed.type ?? event.event ?? '';
      if (typeof parsed.sequence_number === 'number') nextSequence = parsed.sequence_number + 1;
      if (OUTPUT_DELTAS.has(type) && typeof parsed.delta === 'string') {
        if (type === 'response.output_text.delta') deliveredText += parsed.delta;
        else otherOutput += parsed.delta;
        if (type === 'response.function_call_arguments.delta') toolCalls = true;
      }
      if (type === 'response.created') onResponseId(parsed.response?.id);
      if (FINAL_EVENTS.has(type)) usage = openaiResponsesFormat.usageToHub(parsed.response?.usage);
      return formatSseEvent(event.data, event.event);
    },
    // The Responses API has no [DONE]; a stream without its final event is closed as it is, and metered.
    end: () => '',
    failure: (error: GatewayError) => formatSseEvent(JSON.stringify({ type: 'error', code: error.code, message: error.message, param: null, sequence_number: nextSequence }), 'error'),
    usage: (): Usage => resolveUsage(usage, { prompt: () => estimatePromptTokens(call.body), output: () => estimateTextTokens(deliveredText + otherOutput) }),
    delivered: () => ({ text: deliveredText, toolCalls }),
  };
}
