// Refusals in Anthropic's envelope that the relay routes apart. Anthropic has no code for a prompt over the
// context window: it is an invalid_request_error whose message says so ("prompt is too long: 210000 tokens >
// 200000 maximum", "input length and `max_tokens` exceed context limit"). It has no content-policy error:
// such refusals come as an answer with stop_reason "refusal".
import type { FormatRefusal } from '../../hub/hub-format.ts';
import { errorBodyJson } from '../../hub/hub-errors.ts';

const CONTEXT_MESSAGE = /prompt is too long|exceed context limit|context window/i;

export function anthropicRefusalOf(status: number, body: unknown): FormatRefusal | null {
  if (status !== 400 && status !== 413) return null;
  const error = (errorBodyJson(body) as { error?: { type?: unknown; message?: unknown } } | null)?.error;
  if (!error || typeof error !== 'object' || typeof error.message !== 'string') return null;
  return CONTEXT_MESSAGE.test(error.message) ? 'context-length' : null;
}
