// Gemini chunks of a restarted stream, read against the text the client already has (src/relay/attempts-replay.ts).
import type { ReplayEventReader } from '../../hub/hub-format.ts';

interface GeminiChunk { candidates?: { content?: { parts?: { text?: unknown; functionCall?: unknown; thought?: unknown }[] }; finishReason?: unknown }[] }

/** Gemini chunks: the text parts are compared; a function call, or a finish before catching up, diverges. */
export function geminiReplayEvent(_event: string | undefined, data: string, skip: (piece: string) => string | null, done: () => boolean): ReturnType<ReplayEventReader> {
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
