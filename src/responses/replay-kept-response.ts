// GET /v1/responses/{id}?stream=true on a response the gateway keeps: OpenAI answers a retrieve with
// stream=true with the response's event stream, and a client that reconnects passes starting_after (the
// last sequence_number it saw) to get only the rest. The gateway keeps the finished Response object, not
// the events, so the events are rebuilt from it: the same sequence the translated stream wrote (created,
// in_progress, each output item added … done with its parts and deltas, then the terminal event), with the
// whole text of each part as one delta.
import { invalidRequest } from '../gateway-errors.ts';
import { formatSseEvent } from '../relay/sse-pump.ts';

type Json = Record<string, unknown>;
type Emit = (type: string, fields: Json) => void;

const TERMINAL_EVENT: Record<string, string> = { completed: 'response.completed', incomplete: 'response.incomplete', failed: 'response.failed', cancelled: 'response.cancelled' };

const asArray = (value: unknown): Json[] => (Array.isArray(value) ? (value as Json[]) : []);
const text = (value: unknown): string => (typeof value === 'string' ? value : '');

/** A message's content part, announced empty then filled: output_text and refusal have their own events. */
function replayContentPart(emit: Emit, where: Json, contentIndex: number, part: Json): void {
  const at = { ...where, content_index: contentIndex };
  if (part.type === 'output_text') {
    const logprobs = Array.isArray(part.logprobs) ? part.logprobs : [];
    emit('response.content_part.added', { ...at, part: { ...part, text: '', annotations: [], ...(part.logprobs !== undefined ? { logprobs: [] } : {}) } });
    if (text(part.text) !== '') emit('response.output_text.delta', { ...at, delta: part.text, logprobs });
    emit('response.output_text.done', { ...at, text: text(part.text), logprobs });
  } else if (part.type === 'refusal') {
    emit('response.content_part.added', { ...at, part: { ...part, refusal: '' } });
    if (text(part.refusal) !== '') emit('response.refusal.delta', { ...at, delta: part.refusal });
    emit('response.refusal.done', { ...at, refusal: text(part.refusal) });
  } else {
    emit('response.content_part.added', { ...at, part });
  }
  emit('response.content_part.done', { ...at, part });
}

/** One output item: added with its growing fields empty, its parts and deltas, then done as kept. */
function replayItem(emit: Emit, outputIndex: number, item: Json): void {
  const where = { item_id: item.id, output_index: outputIndex };
  switch (item.type) {
    case 'message':
      emit('response.output_item.added', { output_index: outputIndex, item: { ...item, status: 'in_progress', content: [] } });
      asArray(item.content).forEach((part, i) => replayContentPart(emit, where, i, part));
      break;
    case 'reasoning':
      emit('response.output_item.added', { output_index: outputIndex, item: { ...item, summary: [], ...(item.content !== undefined ? { content: [] } : {}) } });
      asArray(item.summary).forEach((part, i) => {
        const at = { ...where, summary_index: i };
        emit('response.reasoning_summary_part.added', { ...at, part: { ...part, text: '' } });
        if (text(part.text) !== '') emit('response.reasoning_summary_text.delta', { ...at, delta: part.text });
        emit('response.reasoning_summary_text.done', { ...at, text: text(part.text) });
        emit('response.reasoning_summary_part.done', { ...at, part });
      });
      asArray(item.content).forEach((part, i) => {
        const at = { ...where, content_index: i };
        if (text(part.text) !== '') emit('response.reasoning_text.delta', { ...at, delta: part.text });
        emit('response.reasoning_text.done', { ...at, text: text(part.text) });
      });
      break;
    case 'function_call':
      emit('response.output_item.added', { output_index: outputIndex, item: { ...item, status: 'in_progress', arguments: '' } });
      if (text(item.arguments) !== '') emit('response.function_call_arguments.delta', { ...where, delta: item.arguments });
      emit('response.function_call_arguments.done', { ...where, name: item.name, arguments: text(item.arguments) });
      break;
    default:
      emit('response.output_item.added', { output_index: outputIndex, item });
  }
  emit('response.output_item.done', { output_index: outputIndex, item });
}

/** The kept response's events, as SSE text, from the one after `startingAfter` (-1: all of them). */
export function keptResponseEvents(response: Json, startingAfter = -1): string[] {
  const events: string[] = [];
  let sequence = 0;
  const emit: Emit = (type, fields) => {
    const number = sequence++;
    if (number > startingAfter) events.push(formatSseEvent(JSON.stringify({ type, ...fields, sequence_number: number }), type));
  };
  // While it ran, the response had no output, no usage and no ending yet.
  const running = { ...response, status: 'in_progress', output: [], usage: null, incomplete_details: null, error: null };
  emit('response.created', { response: running });
  emit('response.in_progress', { response: running });
  asArray(response.output).forEach((item, i) => replayItem(emit, i, item));
  emit(TERMINAL_EVENT[text(response.status)] ?? 'response.completed', { response });
  return events;
}

/** `starting_after` from a retrieve's query: absent, every event (-1); else a sequence number. */
export function startingAfterOf(query: URLSearchParams): number {
  const raw = query.get('starting_after');
  if (raw === null) return -1;
  const value = /^\d{1,9}$/.test(raw) ? Number(raw) : NaN;
  if (Number.isNaN(value)) throw invalidRequest(`Invalid value for 'starting_after': expected a non-negative integer (an event's sequence_number), got '${raw.slice(0, 40)}'.`, 'starting_after', 'invalid_value');
  return value;
}

export async function* replayStream(events: readonly string[]): AsyncGenerator<string> {
  for (const event of events) yield event;
}
