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

export function prepareResponses(raw: unknown): PreparedCall {
  const body = parseBody(responsesSchema, raw);
  return {
    model: body.model,
    stream: body.stream === true,
    body,
    relay: (deps, call) => {
      const passthrough = openAIJsonPassthroughHop(call, {
        operation: 'responses',
        usage: (text) => resolveUsage(openaiResponsesFormat.usageToHub(readUsageObjectFromTail(text)), { prompt: () => estimatePromptTokens(body), output: () => wholeOutputTokens(text) }),
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

function responsesPassthroughStream(call: RelayCall): StreamConverter {
  let usage: HubUsage | null = null;
  let deliveredText = '';
  let otherOutput = '';
  let toolCalls = false;
  return {
    event(event: EventSourceMessage) {
      let parsed: { type?: string; delta?: unknown; response?: { usage?: unknown } };
      try {
        parsed = JSON.parse(event.data) as typeof parsed;
      } catch {
        throw new MalformedEventError(`not JSON: ${event.data.slice(0, 80)}`);
      }
      const type = parsed.type ?? event.event ?? '';
      if (OUTPUT_DELTAS.has(type) && typeof parsed.delta === 'string') {
        if (type === 'response.output_text.delta') deliveredText += parsed.delta;
        else otherOutput += parsed.delta;
        if (type === 'response.function_call_arguments.delta') toolCalls = true;
      }
      if (FINAL_EVENTS.has(type)) usage = openaiResponsesFormat.usageToHub(parsed.response?.usage);
      return formatSseEvent(event.data, event.event);
    },
    // The Responses API has no [DONE]; a stream without its final event is closed as it is, and metered.
    end: () => '',
    failure: (error: GatewayError) => formatSseEvent(JSON.stringify({ type: 'error', code: error.code, message: error.message, param: null, sequence_number: 0 }), 'error'),
    usage: (): Usage => resolveUsage(usage, { prompt: () => estimatePromptTokens(call.body), output: () => estimateTextTokens(deliveredText + otherOutput) }),
    delivered: () => ({ text: deliveredText, toolCalls }),
  };
}
