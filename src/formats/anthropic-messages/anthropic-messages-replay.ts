// Anthropic message events of a restarted stream, read against the text the client already has (src/relay/attempts-replay.ts).
import type { ReplayEventReader } from '../../hub/hub-format.ts';

interface AnthropicEvent { type?: string; delta?: { type?: string; text?: string }; content_block?: { type?: string } }

/** Anthropic message events: text_delta is compared; its openings are the client's already. */
export function anthropicReplayEvent(event: string | undefined, data: string, skip: (piece: string) => string | null): ReturnType<ReplayEventReader> {
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

function parseJson(data: string): unknown {
  try {
    return JSON.parse(data);
  } catch {
    return null;
  }
}
