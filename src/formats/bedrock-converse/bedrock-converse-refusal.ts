// Refusals in Bedrock's error envelope that the relay routes apart. A prompt over the model's context is a
// ValidationException whose message says so ("Input is too long for requested model"); a content-policy
// stop is not an error in Converse (stopReason guardrail_intervened / content_filtered on an answer).
import type { FormatRefusal } from '../../hub/hub-format.ts';
import { errorBodyJson } from '../../hub/hub-errors.ts';
import { normaliseErrorType } from './bedrock-converse-error.ts';

const CONTEXT_TOO_LONG = /input is too long|too many input tokens|prompt is too long|context window/i;

export function converseRefusalOf(status: number, body: unknown): FormatRefusal | null {
  if (status !== 400 && status !== 413) return null;
  const error = errorBodyJson(body) as { __type?: unknown; message?: unknown; Message?: unknown } | null;
  if (!error || typeof error !== 'object') return null;
  const message = typeof error.message === 'string' ? error.message : typeof error.Message === 'string' ? error.Message : null;
  const type = typeof error.__type === 'string' ? normaliseErrorType(error.__type) : 'ValidationException';
  return message !== null && type === 'ValidationException' && CONTEXT_TOO_LONG.test(message) ? 'context-length' : null;
}
