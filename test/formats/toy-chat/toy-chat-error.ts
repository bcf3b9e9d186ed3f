// toy-chat errors ⇄ GatewayError: `{ trouble: { kind, says } }` with the HTTP status, or as a stream event.
import type { GatewayError, GatewayErrorKind } from '../../../src/gateway-errors.ts';
import { errorBodyJson, fallbackErrorMessage, upstreamStatusError, type RenderedFormatError } from '../../../src/hub/hub-errors.ts';
import type { FormatRefusal } from '../../../src/hub/hub-format.ts';
import type { SseEvent } from '../../../src/hub/hub-stream.ts';
import type { ToyTrouble } from './toy-chat-wire.ts';

function troubleOf(body: unknown): ToyTrouble | null {
  const trouble = (errorBodyJson(body) as { trouble?: Partial<ToyTrouble> } | null)?.trouble;
  return trouble && typeof trouble.kind === 'string' && typeof trouble.says === 'string' ? { kind: trouble.kind, says: trouble.says } : null;
}

export function toyTroubleToHub(status: number, body: unknown): GatewayError {
  const trouble = troubleOf(body);
  if (!trouble) return upstreamStatusError(status, { message: fallbackErrorMessage(status, body) });
  return upstreamStatusError(status, { message: trouble.says, code: trouble.kind === 'too_long' ? 'context_length_exceeded' : trouble.kind });
}

export function toyRefusalOf(_status: number, body: unknown): FormatRefusal | null {
  return troubleOf(body)?.kind === 'too_long' ? 'context-length' : null;
}

const KIND_OF: Partial<Record<GatewayErrorKind, string>> = {
  invalid_request_error: 'bad_request',
  authentication_error: 'no_key',
  rate_limit_error: 'busy',
  overloaded_error: 'overloaded',
};

const troubleFor = (error: GatewayError): ToyTrouble => ({ kind: KIND_OF[error.kind] ?? 'broken', says: error.message });

export function hubErrorToToy(error: GatewayError): RenderedFormatError {
  return { status: error.status, body: JSON.stringify({ trouble: troubleFor(error) }) };
}

export function hubErrorToToyStreamEvent(error: GatewayError): SseEvent {
  return { data: JSON.stringify({ trouble: troubleFor(error) }) };
}
