// OpenAI's error shape: {"error":{"message","type","param","code"}}.
import type { SimulatorExchange } from './simulator-core.ts';
import { sendJson } from './simulator-http.ts';

export function openAIError(message: string, type: string, param: string | null, code: string | null) {
  return { error: { message, type, param, code } };
}

/** OpenAI's error body for a status, used when a script gives a status without a body. */
export function openAIErrorForStatus(status: number) {
  switch (status) {
    case 400: return openAIError('Invalid request.', 'invalid_request_error', null, null);
    case 401: return openAIError('Incorrect API key provided.', 'invalid_request_error', null, 'invalid_api_key');
    case 403: return openAIError('You are not allowed to sample from this model', 'invalid_request_error', null, null);
    case 404: return openAIError('The model does not exist or you do not have access to it.', 'invalid_request_error', null, 'model_not_found');
    case 429: return openAIError('Rate limit reached for requests', 'requests', null, 'rate_limit_exceeded');
    case 503: return openAIError('The server is overloaded or not ready yet.', 'server_error', null, null);
    default: return openAIError('The server had an error while processing your request. Sorry about that!', 'server_error', null, null);
  }
}

export function sendOpenAIInvalid(exchange: SimulatorExchange, message: string, param: string | null, code: string | null = null): void {
  sendJson(exchange.response, 400, openAIError(message, 'invalid_request_error', param, code));
}
