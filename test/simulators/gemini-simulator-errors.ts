// Google's error shape: {"error":{"code","message","status","details"?}}.

export function geminiError(code: number, status: string, message: string, details?: unknown[]) {
  return { error: details ? { code, message, status, details } : { code, message, status } };
}

/** What Google answers for a wrong API key: 400 INVALID_ARGUMENT with reason API_KEY_INVALID. */
export function geminiInvalidKeyError() {
  const message = 'API key not valid. Please pass a valid API key.';
  return geminiError(400, 'INVALID_ARGUMENT', message, [
    { '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'API_KEY_INVALID', domain: 'googleapis.com', metadata: { service: 'generativelanguage.googleapis.com' } },
    { '@type': 'type.googleapis.com/google.rpc.LocalizedMessage', locale: 'en-US', message },
  ]);
}

/** What Google answers when no key is given at all: 403 PERMISSION_DENIED. */
export function geminiMissingKeyError() {
  return geminiError(403, 'PERMISSION_DENIED', "Method doesn't allow unregistered callers (callers without established identity). Please use API Key or other form of API consumer identity to call this API.");
}

/** Google's error body for a status, used when a script gives a status without a body. */
export function geminiErrorForStatus(status: number) {
  switch (status) {
    case 400: return geminiError(400, 'INVALID_ARGUMENT', 'Request contains an invalid argument.');
    case 401: return geminiError(401, 'UNAUTHENTICATED', 'Request had invalid authentication credentials.');
    case 403: return geminiError(403, 'PERMISSION_DENIED', 'The caller does not have permission');
    case 404: return geminiError(404, 'NOT_FOUND', 'Requested entity was not found.');
    case 429: return geminiError(429, 'RESOURCE_EXHAUSTED', 'Resource has been exhausted (e.g. check quota).');
    case 503: return geminiError(503, 'UNAVAILABLE', 'The model is overloaded. Please try again later.');
    case 504: return geminiError(504, 'DEADLINE_EXCEEDED', 'Deadline expired before operation could complete.');
    default: return geminiError(status, 'INTERNAL', 'An internal error has occurred. Please retry or report in https://developers.generativeai.google/guide/troubleshooting');
  }
}
