// The checks an OpenAI chat request must pass before anything goes upstream. Only the fields the gateway
// relies on or that upstreams reject with worse messages are checked; unknown fields pass through untouched.
import { z } from 'zod';
import { invalidRequest } from '../gateway-errors.ts';

const chatRequestSchema = z.looseObject({
  model: z.string().min(1),
  messages: z.array(z.looseObject({ role: z.string().min(1) })).min(1),
  stream: z.boolean().nullish(),
  stream_options: z.looseObject({ include_usage: z.boolean().nullish() }).nullish(),
  temperature: z.number().min(0).max(2).nullish(),
  top_p: z.number().min(0).max(1).nullish(),
  n: z.number().int().min(1).max(128).nullish(),
  max_tokens: z.number().int().min(1).nullish(),
  max_completion_tokens: z.number().int().min(1).nullish(),
});

export type OpenAIChatBody = z.infer<typeof chatRequestSchema>;

export function validateOpenAIChatBody(body: unknown): OpenAIChatBody {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw invalidRequest('The request body must be a JSON object.');
  }
  const parsed = chatRequestSchema.safeParse(body);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  const param = formatParam(issue.path);
  const missing = issue.code === 'invalid_type' && (body as Record<string, unknown>)[String(issue.path[0])] === undefined && issue.path.length === 1;
  throw invalidRequest(missing ? `Missing required parameter: '${param}'.` : `Invalid value for '${param}': ${issue.message}`, param, missing ? 'missing_required_parameter' : 'invalid_value');
}

function formatParam(path: PropertyKey[]): string {
  return path.map((part, i) => (typeof part === 'number' ? `[${part}]` : i === 0 ? String(part) : `.${String(part)}`)).join('');
}
