// The checks an OpenAI chat request must pass before anything goes upstream. Only the fields the gateway
// relies on, or that upstreams reject with worse messages, are checked; unknown fields pass through.
// Hand-written rather than a schema library: this runs on every request, and costs well under a microsecond.
import { invalidRequest } from '../../gateway-errors.ts';

interface OpenAIChatBody extends Record<string, unknown> {
  model: string;
  messages: { role: string }[];
  stream?: boolean | null;
  stream_options?: { include_usage?: boolean | null } | null;
}

export function validateOpenAIChatBody(body: unknown): OpenAIChatBody {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw invalidRequest('The request body must be a JSON object.');
  }
  const fields = body as Record<string, unknown>;
  requireString(fields, 'model');
  const messages = fields.messages;
  if (messages === undefined) throw missing('messages');
  if (!Array.isArray(messages) || messages.length === 0) throw invalid('messages', 'expected a non-empty array of messages');
  for (let i = 0; i < messages.length; i++) {
    const message = messages[i] as { role?: unknown } | null;
    if (message === null || typeof message !== 'object' || Array.isArray(message)) throw invalid(`messages[${i}]`, 'expected a message object');
    if (typeof message.role !== 'string' || message.role.length === 0) throw invalid(`messages[${i}].role`, 'expected a role such as "user"');
  }
  optionalBoolean(fields, 'stream');
  const streamOptions = fields.stream_options;
  if (streamOptions !== undefined && streamOptions !== null) {
    if (typeof streamOptions !== 'object' || Array.isArray(streamOptions)) throw invalid('stream_options', 'expected an object');
    optionalBoolean(streamOptions as Record<string, unknown>, 'include_usage', 'stream_options.include_usage');
  }
  optionalNumber(fields, 'temperature', 0, 2);
  optionalNumber(fields, 'top_p', 0, 1);
  optionalNumber(fields, 'presence_penalty', -2, 2);
  optionalNumber(fields, 'frequency_penalty', -2, 2);
  optionalInteger(fields, 'n', 1, 128);
  optionalInteger(fields, 'max_tokens', 1, Number.MAX_SAFE_INTEGER);
  optionalInteger(fields, 'max_completion_tokens', 1, Number.MAX_SAFE_INTEGER);
  return fields as OpenAIChatBody;
}

function missing(param: string) {
  return invalidRequest(`Missing required parameter: '${param}'.`, param, 'missing_required_parameter');
}

function invalid(param: string, expected: string) {
  return invalidRequest(`Invalid value for '${param}': ${expected}.`, param, 'invalid_value');
}

function requireString(fields: Record<string, unknown>, name: string): void {
  const value = fields[name];
  if (value === undefined || value === null) throw missing(name);
  if (typeof value !== 'string' || value.length === 0) throw invalid(name, 'expected a non-empty string');
}

function optionalBoolean(fields: Record<string, unknown>, name: string, param = name): void {
  const value = fields[name];
  if (value !== undefined && value !== null && typeof value !== 'boolean') throw invalid(param, 'expected true or false');
}

function optionalNumber(fields: Record<string, unknown>, name: string, min: number, max: number): void {
  const value = fields[name];
  if (value === undefined || value === null) return;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < min || value > max) throw invalid(name, `expected a number from ${min} to ${max}`);
}

function optionalInteger(fields: Record<string, unknown>, name: string, min: number, max: number): void {
  const value = fields[name];
  if (value === undefined || value === null) return;
  if (!Number.isInteger(value) || (value as number) < min || (value as number) > max) {
    throw invalid(name, max === Number.MAX_SAFE_INTEGER ? `expected a whole number of at least ${min}` : `expected a whole number from ${min} to ${max}`);
  }
}
