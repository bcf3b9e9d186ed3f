// OpenAI chat chunks of a restarted stream, read against the text the client already has (src/relay/attempts-replay.ts).
import type { ReplayEventReader } from '../../hub/hub-format.ts';

interface OpenAIChunk { choices?: { delta?: Record<string, unknown>; text?: unknown; finish_reason?: unknown }[] }

/** OpenAI chat chunks: `content` (and `reasoning_content`) are compared; a finish or a tool call before catching up diverges. */
export function openaiChatReplayEvent(_event: string | undefined, data: string, skip: (piece: string) => string | null, done: () => boolean): ReturnType<ReplayEventReader> {
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

function parseJson(data: string): unknown {
  try {
    return JSON.parse(data);
  } catch {
    return null;
  }
}
