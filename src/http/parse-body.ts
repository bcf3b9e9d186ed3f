// Validates a management request body with zod, answering 400 naming the field.
import type { z } from 'zod';
import { invalidRequest } from '../gateway-errors.ts';

export function parseBody<T extends z.ZodType>(schema: T, body: unknown): z.infer<T> {
  const parsed = schema.safeParse(body ?? {});
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  const param = issue.path.map(String).join('.') || null;
  throw invalidRequest(`Invalid value${param ? ` for '${param}'` : ''}: ${issue.message}`, param);
}
