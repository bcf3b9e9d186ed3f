// Validates a request body with zod, answering 400 in the caller's format naming the field at fault.
import type { z } from 'zod';
import { invalidRequest } from './gateway-errors.ts';
import { FIRST_ISSUE_ONLY } from './hub/hub-validation.ts';

export function parseBody<T extends z.ZodType>(schema: T, body: unknown): z.infer<T> {
  if (body !== undefined && (body === null || typeof body !== 'object' || Array.isArray(body))) {
    throw invalidRequest('The request body must be a JSON object.');
  }
  const parsed = schema.safeParse(body ?? {}, FIRST_ISSUE_ONLY);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  const param = formatParam(issue.path) || null;
  const missing = issue.code === 'invalid_type' && issue.input === undefined;
  if (missing && param) throw invalidRequest(`Missing required parameter: '${param}'.`, param, 'missing_required_parameter');
  throw invalidRequest(`Invalid value${param ? ` for '${param}'` : ''}: ${issue.message}`, param, 'invalid_value');
}

function formatParam(path: PropertyKey[]): string {
  return path.map((part, i) => (typeof part === 'number' ? `[${part}]` : i === 0 ? String(part) : `.${String(part)}`)).join('');
}
