// A restarted answer, with the part the client already has taken out. When a stream broke and no route
// would continue it from an assistant prefill, the call is sent again from the start; this filter reads
// the client-format events of that new answer and drops its text until it has repeated, character for
// character, what was delivered, then passes the rest on. If the new answer says something else first
// (different text, a tool call, or an end before catching up) it has diverged: nothing of it is sent.
// Works on the client's wire format (OpenAI chat, Anthropic messages, Gemini), so every hop can use it.
import type { WireFormat } from '../providers/provider-definition.ts';
import { formatSseEvent } from './sse-pump.ts';

export interface ReplayFilter {
  /** The client text of the restarted stream, minus what was already delivered. */
  pass(text: string): string;
  /** The new answer repeated all of the delivered text: everything from here on goes to the client. */
  readonly caughtUp: boolean;
  /** The new answer does not repeat the delivered text: none of it may reach the client. */
  readonly diverged: boolean;
}

type Step = { keep: string | null } | 'diverged';

/** Null for a client format this filter cannot read (the stream then ends with its error event). */
export function createReplayFilter(format: WireFormat, delivered: string): ReplayFilter | null {
  const readEvent = EVENT_READERS[format];
  if (!readEvent) return null;
  let offset = 0;
  let diverged = false;
  let caughtUp = delivered.length === 0;
  /** Takes the already-delivered part out of one piece of new text: what is left, or null on a mismatch. */
  const skip = (piece: string): string | null => {
    if (caughtUp || piece.length === 0) return piece;
    const wanted = delivered.length - offset;
    const head = piece.slice(0, wanted);
    if (head !== delivered.slice(offset, offset + head.length)) return null;
    offset += head.length;
    if (offset === delivered.length) caughtUp = true;
    return piece.slice(head.length);
  };
  return {
    get caughtUp() {
      return caughtUp;
    },
    get diverged() {
      return diverged;
    },
    pass(text) {
      if (caughtUp || diverged) return diverged ? '' : text;
      let out = '';
      for (const raw of text.split('\n\n')) {
        if (raw.length === 0) continue;
        if (caughtUp) {
          out += raw + '\n\n';
          continue;
        }
        const { event, data } = parseEvent(raw);
        const step = readEvent(event, data, skip, () => caughtUp);
        if (step === 'diverged') {
          diverged = true;
          return '';
        }
        if (step.keep !== null) out += formatSseEvent(step.keep, event);
      }
      return out;
    },
  };
}

function parseEvent(raw: string): { event: string | undefined; data: string } {
  let event: string | undefined;
  let data = '';
  for (const line of raw.split('\n')) {
    if (line.startsWith('event:')) event = line.slice(6).trim();
    else if (line.startsWith('data:')) data += (data ? '\n' : '') + line.slice(line.charCodeAt(5) === 32 ? 6 : 5);
  }
  return { event, data };
}

type Skip = (piece: string) => string | null;
/** `done()`: the delivered text has been repeated in full (an end is consistent from then on). */
type EventReader = (event: string | undefined, data: string, skip: Skip, done: () => boolean) => Step;

const EVENT_READERS: Partial<Record<WireFormat, EventReader>> = {
  'openai-chat': openAIChatEvent,
  'anthropic-messages': anthropicEvent,
  'gemini-generate': geminiEvent,
};

interface OpenAIChunk { choices?: { delta?: Record<string, unknown>; text?: unknown; finish_reason?: unknown }[] }

/** OpenAI chat chunks: `content` (and `reasoning_content`) are compared; a finish or a tool call before catching up diverges. */
function openAIChatEvent(_event: string | undefined, data: string, skip: Skip, done: () => boolean): Step {
  if (data === '[DONE]') return 'diverged';
  const chunk = parseJson(data) as OpenAIChunk | null;
  if (!chunk) return { keep: null };
  const choice = chunk.choices?.[0];
  if (!choice) return { keep: data }; // usage-only or empty chunk: nothing of the answer in it
  const delta = choice.delta ?? {};
  if (delta.tool_calls) return 'diverged';
  let left = '';
  for (const field of ['content', 'reasoning_content']) {
    const piece = delta[field];
    if (typeof piece !== 'string') continue;
    const rest = skip(piece);
    if (rest === null) return 'diverged';
    delta[field] = rest;
    left += rest;
  }
  const finishing = choice.finish_reason !== null && choice.finish_reason !== undefined;
  if (finishing && !done()) return 'diverged';
  if (left.length === 0 && !finishing) return { keep: null };
  // The new answer ended exactly where the delivered text did: the client needs its finish, nothing else.
  return { keep: JSON.stringify(chunk) };
}

interface AnthropicEvent { type?: string; delta?: { type?: string; text?: string }; content_block?: { type?: string } }

/** Anthropic message events: text_delta is compared; its openings are the client's already. */
function anthropicEvent(event: string | undefined, data: string, skip: Skip): Step {
  const parsed = parseJson(data) as AnthropicEvent | null;
  const type = parsed?.type ?? event;
  if (type === 'message_start' || type === 'ping' || type === 'content_block_stop') return { keep: null };
  if (type === 'content_block_start') return parsed?.content_block?.type === 'tool_use' ? 'diverged' : { keep: null };
  if (type === 'content_block_delta') {
    const delta = parsed?.delta;
    if (delta?.type === 'input_json_delta') return 'diverged';
    if (delta?.type !== 'text_delta' || typeof delta.text !== 'string') return { keep: null };
    const rest = skip(delta.text);
    if (rest === null) return 'diverged';
    if (rest.length === 0) return { keep: null };
    delta.text = rest;
    return { keep: JSON.stringify(parsed) };
  }
  return 'diverged'; // message_delta, message_stop, error: the answer ended before catching up
}

interface GeminiChunk { candidates?: { content?: { parts?: { text?: unknown; functionCall?: unknown; thought?: unknown }[] }; finishReason?: unknown }[] }

/** Gemini chunks: the text parts are compared; a function call, or a finish before catching up, diverges. */
function geminiEvent(_event: string | undefined, data: string, skip: Skip, done: () => boolean): Step {
  const chunk = parseJson(data) as GeminiChunk | null;
  const candidate = chunk?.candidates?.[0];
  if (!chunk || !candidate) return { keep: null };
  let left = '';
  const parts = [];
  for (const part of candidate.content?.parts ?? []) {
    if (part.functionCall) return 'diverged';
    if (typeof part.text !== 'string') continue;
    const rest = skip(part.text);
    if (rest === null) return 'diverged';
    if (rest.length > 0) parts.push({ ...part, text: rest });
    left += rest;
  }
  if (candidate.content) candidate.content.parts = parts;
  const finishing = candidate.finishReason !== undefined && candidate.finishReason !== null;
  if (finishing && !done()) return 'diverged';
  if (left.length === 0 && !finishing) return { keep: null };
  return { keep: JSON.stringify(chunk) };
}

function parseJson(data: string): unknown {
  try {
    return JSON.parse(data);
  } catch {
    return null;
  }
}
