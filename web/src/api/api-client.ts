// One way to call the gateway's /api: JSON in and out, the session cookie sent by the browser, and the
// CSRF token (returned by sign-in and GET /api/me) on every state-changing request. Errors arrive in the
// OpenAI envelope {"error":{"message","type","param","code"}} and become ApiError, so a form can put the
// message next to the field the server named.

export class ApiError extends Error {
  readonly status: number;
  readonly code: string | null;
  readonly param: string | null;
  readonly retryAfterSeconds: number | null;

  constructor(status: number, message: string, code: string | null, param: string | null, retryAfterSeconds: number | null) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.param = param;
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

let csrfToken: string | null = null;

/** Dispatched on window when any /api call answers 401: the session is gone. */
export const SIGNED_OUT_EVENT = 'gateway:signed-out';

/** Remembered from sign-in and /api/me; cleared on sign-out. Kept in memory only (never in storage). */
export function setCsrfToken(token: string | null): void {
  csrfToken = token;
}

export const currentCsrfToken = (): string | null => csrfToken;

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export async function apiRequest<T>(method: Method, path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (method !== 'GET' && csrfToken) headers['x-csrf-token'] = csrfToken;
  const response = await fetch(path, {
    method,
    headers,
    credentials: 'same-origin',
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  if (response.status === 204) return undefined as T;
  const text = await response.text();
  const data: unknown = text ? safeParse(text) : null;
  if (!response.ok) {
    // A session that ended while a page was open: the app sends the user to sign in and back (RequireAuth).
    if (response.status === 401 && !path.startsWith('/api/auth/')) window.dispatchEvent(new Event(SIGNED_OUT_EVENT));
    throw toApiError(response, data);
  }
  // A privilege change (password, two-factor) rotates the session and answers its new CSRF token.
  const rotated = (data as { csrf_token?: unknown } | null)?.csrf_token;
  if (typeof rotated === 'string') setCsrfToken(rotated);
  return data as T;
}

function safeParse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

function toApiError(response: Response, data: unknown): ApiError {
  const envelope = (data as { error?: { message?: unknown; code?: unknown; param?: unknown } } | null)?.error;
  const retryAfter = Number(response.headers.get('retry-after'));
  return new ApiError(
    response.status,
    typeof envelope?.message === 'string' ? envelope.message : plainStatusMessage(response.status),
    typeof envelope?.code === 'string' ? envelope.code : null,
    typeof envelope?.param === 'string' ? envelope.param : null,
    Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter : null,
  );
}

function plainStatusMessage(status: number): string {
  if (status === 401) return 'You are signed out. Please sign in again.';
  if (status === 403) return 'You are not allowed to do that.';
  if (status === 404) return 'That was not found.';
  if (status === 429) return 'Too many attempts. Please wait a moment and try again.';
  if (status >= 500) return 'The gateway could not complete this request. Please try again.';
  return `The request failed (HTTP ${status}).`;
}

export const api = {
  get: <T>(path: string) => apiRequest<T>('GET', path),
  post: <T>(path: string, body: unknown = {}) => apiRequest<T>('POST', path, body),
  put: <T>(path: string, body: unknown) => apiRequest<T>('PUT', path, body),
  patch: <T>(path: string, body: unknown) => apiRequest<T>('PATCH', path, body),
  delete: <T>(path: string) => apiRequest<T>('DELETE', path),
};

/** True when an error means the session is gone and the user must sign in again. */
export const isSignedOut = (error: unknown): boolean => error instanceof ApiError && error.status === 401;
