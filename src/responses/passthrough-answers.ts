// Reading a Responses answer passed through from an OpenAI-type channel, whole or streamed: its id and its
// output item ids (recorded with their owner), and its usage (metered).
import type { EventSourceMessage } from 'eventsource-parser';
import type { Usage } from '../metering/usage.ts';
import type { HubUsage } from '../hub/hub-response.ts';
import { estimateHubResponseTokens, estimateTextTokens } from '../metering/estimate-tokens.ts';
import type { AttemptUsage } from '../relay/attempt-usage.ts';
import { MalformedEventError, type StreamConverter } from '../relay/relay-hop.ts';
import { formatSseEvent } from '../relay/sse-pump.ts';
import type { GatewayError } from '../gateway-errors.ts';
import { openaiResponsesFormat } from '../formats/openai-responses/index.ts';

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

/** The ids of a whole answer's output items, for item_reference; none when it cannot be read. */
export function outputItemIdsOf(text: string): string[] {
  try {
    const output = (JSON.parse(text) as { output?: unknown }).output;
    return Array.isArray(output) ? output.map((item) => (item as { id?: unknown })?.id).filter((id): id is string => typeof id === 'string') : [];
  } catch {
    return [];
  }
}

/** Output tokens of a whole Responses answer (text, reasoning, function calls), read through the format. */
export function wholeOutputTokens(text: string): number {
  try {
    return estimateHubResponseTokens(openaiResponsesFormat.responseToHub(JSON.parse(text)));
  } catch {
    return 0;
  }
}

/** Deltas that are output: the answer text, reasoning (full or summarised) and function-call arguments. */
const OUTPUT_DELTAS = new Set(['response.output_text.delta', 'response.reasoning_text.delta', 'response.reasoning_summary_text.delta', 'response.function_call_arguments.delta', 'response.refusal.delta']);

interface PassthroughObserver {
  onResponseId(id: unknown): void;
  /** The answer's output item ids, once it has ended. */
  onItemIds(ids: string[]): void;
}

export function responsesPassthroughStream(attempt: AttemptUsage, observer: PassthroughObserver): StreamConverter {
  let usage: HubUsage | null = null;
  let deliveredText = '';
  let otherOutput = '';
  let toolCalls = false;
  const itemIds: string[] = [];
  // The error event that ends a failed stream continues the upstream's numbering.
  let nextSequence = 0;
  return {
    event(event: EventSourceMessage) {
      let parsed: { type?: string; delta?: unknown; sequence_number?: unknown; item?: { id?: unknown }; response?: { id?: unknown; usage?: unknown } };
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
      if (type === 'response.created') observer.onResponseId(parsed.response?.id);
      if (type === 'response.output_item.added' && typeof parsed.item?.id === 'string') itemIds.push(parsed.item.id);
      if (FINAL_EVENTS.has(type)) {
        usage = openaiResponsesFormat.usageToHub(parsed.response?.usage);
        observer.onItemIds(itemIds);
      }
      return formatSseEvent(event.data, event.event);
    },
    // The Responses API has no [DONE]; a stream without its final event is closed as it is, and metered.
    end: () => '',
    failure: (error: GatewayError) => formatSseEvent(JSON.stringify({ type: 'error', code: error.code, message: error.message, param: null, sequence_number: nextSequence }), 'error'),
    usage: (): Usage => attempt.resolve(usage, () => estimateTextTokens(deliveredText + otherOutput)),
    delivered: () => ({ text: deliveredText, toolCalls }),
  };
}
