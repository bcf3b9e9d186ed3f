// Which error envelope a path's callers expect, and a check that an answer body is in it.

export type Envelope = 'openai' | 'anthropic' | 'gemini';

export function expectedEnvelope(path: string, headers: Record<string, string> = {}): Envelope {
  if (path.startsWith('/v1beta/') || /^\/v1\/models\/[^?]*:/.test(path)) return 'gemini';
  if (path.startsWith('/v1/messages') || headers['anthropic-version'] !== undefined) return 'anthropic';
  return 'openai';
}

/** Null when `body` is a well-formed error of `envelope` with `status`, else what is wrong. */
export function envelopeProblem(envelope: Envelope, status: number, body: string): string | null {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    return `not JSON: ${body.slice(0, 120)}`;
  }
  const error = (json as { error?: Record<string, unknown> } | null)?.error;
  if (!error || typeof error !== 'object') return `no error object: ${body.slice(0, 120)}`;
  if (typeof error.message !== 'string' || error.message.length === 0) return 'no message';
  switch (envelope) {
    case 'openai':
      return typeof error.type === 'string' && 'code' in error && 'param' in error ? null : `not OpenAI's shape: ${body.slice(0, 120)}`;
    case 'anthropic':
      return (json as { type?: unknown }).type === 'error' && typeof error.type === 'string' ? null : `not Anthropic's shape: ${body.slice(0, 120)}`;
    case 'gemini':
      return error.code === status && typeof error.status === 'string' ? null : `not Google's shape: ${body.slice(0, 120)}`;
  }
}
