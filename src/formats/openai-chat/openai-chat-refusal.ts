// Refusals in OpenAI's envelope that the relay routes apart: a prompt over the model's context (OpenAI's
// code `context_length_exceeded`; compatible servers such as vLLM only say it in the message), and a
// content-policy refusal (Azure OpenAI's `content_filter`, the images API's `content_policy_violation`).
import type { FormatRefusal } from '../../hub/hub-format.ts';
import { errorBodyJson } from '../../hub/hub-errors.ts';

const CONTEXT_CODES = new Set(['context_length_exceeded', 'string_above_max_length']);
const POLICY_CODES = new Set(['content_filter', 'content_policy_violation', 'moderation_blocked']);
const CONTEXT_MESSAGE = /maximum context length|context length|context window|too many tokens|prompt is too long/i;

export function openaiRefusalOf(status: number, body: unknown): FormatRefusal | null {
  if (status < 400 || status >= 500) return null;
  const error = (errorBodyJson(body) as { error?: { code?: unknown; message?: unknown } } | null)?.error;
  if (!error || typeof error !== 'object') return null;
  const code = typeof error.code === 'string' ? error.code : '';
  if (POLICY_CODES.has(code)) return 'content-policy';
  if (CONTEXT_CODES.has(code)) return 'context-length';
  return typeof error.message === 'string' && CONTEXT_MESSAGE.test(error.message) ? 'context-length' : null;
}
