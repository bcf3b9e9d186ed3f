// POST /v1/responses: OpenAI's Responses API. Passed through to OpenAI-type channels (streamed events
// unchanged, usage read from the final `response.completed` event); translated through the hub to chat-type
// channels (Anthropic, Gemini), where what needs OpenAI's server-side state is refused with a clear 400.
import type { EventSourceMessage } from 'eventsource-parser';
import { z } from 'zod';
import { emptyUsage, type Usage } from '../metering/usage.ts';
import { estimateChatUsage } from '../metering/admission.ts';
import { estimatePromptTokens, estimateTextTokens } from '../metering/estimate-tokens.ts';
import { readUsageObjectFromTail } from '../metering/read-usage-from-tail.ts';
import { parseBody } from '../validate-request.ts';
import { relayEndpoint } from '../relay/relay-endpoint.ts';
import { openAIJsonPassthroughHop } from '../relay/hops/openai-json-passthrough-hop.ts';
import { MalformedEventError, type StreamConverter } from '../relay/relay-hop.ts';
import { formatSseEvent } from '../relay/sse-pump.ts';
import type { RelayCall } from '../relay/relay-types.ts';
import type { GatewayError } from '../gateway-errors.ts';
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

interface ResponsesUsageWire {
  input_tokens?: number;
  output_tokens?: number;
  input_tokens_details?: { cached_tokens?: number };
  output_tokens_details?: { reasoning_tokens?: number };
}

export function usageFromResponses(wire: unknown): Usage | null {
  if (!wire || typeof wire !== 'object') return null;
  const usage = wire as ResponsesUsageWire;
  return {
    ...emptyUsage(),
    inputTokens: usage.input_tokens ?? 0,
    cachedInputTokens: usage.input_tokens_details?.cached_tokens ?? 0,
    outputTokens: usage.output_tokens ?? 0,
    reasoningTokens: usage.output_tokens_details?.reasoning_tokens ?? 0,
  };
}

export function prepareResponses(raw: unknown): PreparedCall {
  const body = parseBody(responsesSchema, raw);
  return {
    model: body.model,
    stream: body.stream === true,
    body,
    relay: (deps, call) => {
      const passthrough = openAIJsonPassthroughHop(call, {
        operation: 'responses',
        usage: (text) => usageFromResponses(readUsageObjectFromTail(text)) ?? { ...emptyUsage(), inputTokens: estimatePromptTokens(body) },
        stream: () => responsesPassthroughStream(call),
      });
      const translated = translatedChatHop({
        call,
        client: openaiResponsesFormat,
        request: () => openaiResponsesFormat.requestToHub(body).request,
        logger: deps.logger,
        imageFetchAllowPrivate: deps.imageFetchAllowPrivate,
      });
      return relayEndpoint(deps, call, byChannelFormat(passthrough, translated), { estimate: estimateChatUsage(call.rawBody.length, body.max_output_tokens ?? null) });
    },
  };
}

const FINAL_EVENTS = new Set(['response.completed', 'response.failed', 'response.incomplete']);

function responsesPassthroughStream(call: RelayCall): StreamConverter {
  let usage: Usage | null = null;
  let finished = false;
  let deliveredText = '';
  return {
    event(event: EventSourceMessage) {
      let parsed: { type?: string; delta?: unknown; response?: { usage?: unknown } };
      try {
        parsed = JSON.parse(event.data) as typeof parsed;
      } catch {
        throw new MalformedEventError(`not JSON: ${event.data.slice(0, 80)}`);
      }
      const type = parsed.type ?? event.event ?? '';
      if (type === 'response.output_text.delta' && typeof parsed.delta === 'string') deliveredText += parsed.delta;
      if (FINAL_EVENTS.has(type)) {
        finished = true;
        usage = usageFromResponses(parsed.response?.usage) ?? usage;
      }
      return formatSseEvent(event.data, event.event);
    },
    // The Responses API has no [DONE]; a stream without its final event is closed as it is, and metered.
    end: () => '',
    failure: (error: GatewayError) => formatSseEvent(JSON.stringify({ type: 'error', code: error.code, message: error.message, param: null, sequence_number: 0 }), 'error'),
    usage: () => usage ?? { ...emptyUsage(), inputTokens: estimatePromptTokens(call.body), outputTokens: estimateTextTokens(deliveredText) },
    delivered: () => ({ text: deliveredText, toolCalls: false }),
  };
}
