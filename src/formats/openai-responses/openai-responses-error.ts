// Errors in the Responses API use OpenAI's envelope {"error":{"message","type","param","code"}}, so the
// openai-chat renderers are reused; a failure after a stream started is a typed `error` event.
import type { GatewayError } from '../../gateway-errors.ts';
import type { RenderedFormatError } from '../../hub/hub-errors.ts';
import type { SseEvent } from '../../hub/hub-stream.ts';
import { hubErrorToOpenaiChat, openaiErrorToHub } from '../openai-chat/openai-chat-error.ts';

export function openaiResponsesErrorToHub(status: number, body: unknown): GatewayError {
  return openaiErrorToHub(status, body);
}

export function hubErrorToOpenaiResponses(error: GatewayError): RenderedFormatError {
  return hubErrorToOpenaiChat(error);
}

/** The `error` stream event (ResponseErrorEvent); the stream writer passes its next sequence number. */
export function hubErrorToOpenaiResponsesStreamEvent(error: GatewayError, sequenceNumber = 0): SseEvent {
  return {
    event: 'error',
    data: JSON.stringify({ type: 'error', code: error.code ?? error.kind, message: error.message, param: error.param, sequence_number: sequenceNumber }),
  };
}
