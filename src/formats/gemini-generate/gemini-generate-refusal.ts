// Refusals in Google's envelope that the relay routes apart: INVALID_ARGUMENT with "The input token count
// (N) exceeds the maximum number of tokens allowed (M)" is a prompt over the context window. Gemini blocks
// content in a 200 answer (promptFeedback.blockReason, finishReason SAFETY), not with an error status.
import type { FormatRefusal } from '../../hub/hub-format.ts';
import { errorBodyJson } from '../../hub/hub-errors.ts';

const CONTEXT_MESSAGE = /exceeds the maximum number of tokens|input token count|context window/i;

export function geminiRefusalOf(status: number, body: unknown): FormatRefusal | null {
  if (status !== 400) return null;
  let json = errorBodyJson(body);
  // The streaming endpoint answers errors as a one-element array.
  if (Array.isArray(json)) json = json[0];
  const error = (json as { error?: { message?: unknown } } | null)?.error;
  if (!error || typeof error !== 'object' || typeof error.message !== 'string') return null;
  return CONTEXT_MESSAGE.test(error.message) ? 'context-length' : null;
}
