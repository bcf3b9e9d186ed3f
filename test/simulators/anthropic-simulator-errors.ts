// Anthropic's error shape: {"type":"error","error":{"type","message"},"request_id"}.

let sequence = 0;

export function anthropicError(type: string, message: string) {
  return { type: 'error', error: { type, message }, request_id: `req_sim${(++sequence).toString(36)}` };
}

/** Anthropic's error body for a status, used when a script gives a status without a body. */
export function anthropicErrorForStatus(status: number) {
  switch (status) {
    case 400: return anthropicError('invalid_request_error', 'Invalid request.');
    case 401: return anthropicError('authentication_error', 'invalid x-api-key');
    case 402: return anthropicError('billing_error', 'Your credit balance is too low to access the Anthropic API.');
    case 403: return anthropicError('permission_error', 'Your API key does not have permission to use the specified resource.');
    case 404: return anthropicError('not_found_error', 'The requested resource could not be found.');
    case 413: return anthropicError('request_too_large', 'Request exceeds the maximum allowed number of bytes.');
    case 429: return anthropicError('rate_limit_error', 'Number of request tokens has exceeded your per-minute rate limit.');
    case 504: return anthropicError('timeout_error', 'Request timed out.');
    case 529: return anthropicError('overloaded_error', 'Overloaded');
    default: return anthropicError('api_error', 'Internal server error');
  }
}
