// A Responses answer passed through from an OpenAI-type channel, whole or streamed: usage and delivered output
// are read by the Responses format's own watcher (the exchange contract's identity case, as for chat); this
// file adds only what the Responses endpoint keeps beside it: the answer's id and its output item ids
// (recorded with their owner), and the sequence number an error event ending a failed stream continues.
import type { Logger } from 'pino';
import type { EventSourceMessage } from 'eventsource-parser';
import type { Usage } from '../metering/usage.ts';
import type { AnswerReading, AnswerWatcher, WatchContext } from '../hub/hub-format.ts';
import type { AttemptUsage } from '../relay/attempt-usage.ts';
import type { StreamConverter } from '../relay/relay-hop.ts';
import { WatchedStream } from '../relay/hops/watched-stream.ts';
import { formatSseEvent } from '../relay/sse-pump.ts';
import type { GatewayError } from '../gateway-errors.ts';
import { openaiResponsesFormat } from '../formats/openai-responses/index.ts';

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

/** The Responses format's watcher for one passed-through answer. */
function responsesWatcher(body: Record<string, unknown>, logger: Logger, requestId: string, usage: () => Usage): AnswerWatcher {
  const context: WatchContext = {
    body,
    // The Responses API always ends with its usage: no stream option to ask for it.
    clientWantsUsage: true,
    continuing: false,
    usage,
    onWarning: (detail) => logger.warn({ requestId, detail }, 'skipped an upstream event'),
  };
  return openaiResponsesFormat.watch(context);
}

export interface PassthroughCall {
  body: Record<string, unknown>;
  requestId: string;
  logger: Logger;
}

/** A whole answer's usage, as the format's watcher reads it. */
export function wholeResponsesUsage(text: string, call: PassthroughCall, attempt: AttemptUsage): Usage {
  const read = responsesWatcher(call.body, call.logger, call.requestId, () => attempt.resolve(null, () => 0)).whole(text);
  return attempt.resolve(read.reported, read.outputTokens);
}

/** How a whole answer ended and its text, for the call's trace. */
export function wholeResponsesReading(text: string, call: PassthroughCall): AnswerReading {
  return responsesWatcher(call.body, call.logger, call.requestId, () => { throw new Error('not billed here'); }).whole(text).reading();
}

interface PassthroughObserver {
  onResponseId(id: unknown): void;
  /** The answer's output item ids, once it has ended. */
  onItemIds(ids: string[]): void;
}

const FINAL_EVENTS = new Set(['response.completed', 'response.failed', 'response.incomplete']);
/** The events whose ids are kept: the only ones this file parses (the watcher reads every event for the bill). */
const ID_EVENTS = new Set(['response.created', 'response.output_item.added', ...FINAL_EVENTS]);
const SEQUENCE_KEY = '"sequence_number":';
const TYPE_AT_START = /^\{\s*"type"\s*:\s*"([a-z_.]{1,64})"/;

/** The event's sequence number (OpenAI writes it right after `type`), by a native search, not a parse. */
function sequenceOf(data: string): number | null {
  const at = data.indexOf(SEQUENCE_KEY);
  if (at < 0) return null;
  const digits = /^\s*(\d{1,15})/.exec(data.slice(at + SEQUENCE_KEY.length, at + SEQUENCE_KEY.length + 20));
  return digits ? Number(digits[1]) : null;
}

/** A streamed answer: the watched stream, with the ids observed and the error event's numbering continued. */
export function responsesPassthroughStream(call: PassthroughCall, attempt: AttemptUsage, observer: PassthroughObserver): StreamConverter {
  const watched = new WatchedStream(openaiResponsesFormat, attempt, (resolved) => responsesWatcher(call.body, call.logger, call.requestId, resolved));
  const itemIds: string[] = [];
  let nextSequence = 0;
  return {
    event(event: EventSourceMessage) {
      const text = watched.event(event);
      const sequence = sequenceOf(event.data);
      if (sequence !== null) nextSequence = sequence + 1;
      // Servers that leave out the `event:` line still start the data with its type.
      const type = event.event ?? TYPE_AT_START.exec(event.data)?.[1];
      if (type !== undefined && ID_EVENTS.has(type)) observeIds(event.data, itemIds, observer);
      return text;
    },
    end: () => watched.end(),
    failure: (error: GatewayError) => formatSseEvent(JSON.stringify({ type: 'error', code: error.code, message: error.message, param: null, sequence_number: nextSequence }), 'error'),
    usage: () => watched.usage(),
    delivered: () => watched.delivered(),
    reading: () => watched.reading(),
  };
}

function observeIds(data: string, itemIds: string[], observer: PassthroughObserver): void {
  let parsed: { type?: string; item?: { id?: unknown }; response?: { id?: unknown } };
  try {
    parsed = JSON.parse(data) as typeof parsed;
  } catch {
    return; // the watcher has already reported it
  }
  if (parsed.type === 'response.created') observer.onResponseId(parsed.response?.id);
  else if (parsed.type === 'response.output_item.added' && typeof parsed.item?.id === 'string') itemIds.push(parsed.item.id);
  else if (parsed.type !== undefined && FINAL_EVENTS.has(parsed.type)) observer.onItemIds(itemIds);
}
