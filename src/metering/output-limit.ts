// The most output tokens a request body lets the upstream produce, read from the fields every chat format
// states it in. An output count the gateway estimates (the upstream reported none: a stream cut short, a
// server that never counts) is capped by it: the upstream could not have produced more, so billing more
// would charge for tokens that never existed (the estimate tokenises delivered text with gpt-tokenizer,
// which can run above a provider's own count). A count the upstream reported is never capped.

/**
 * The body's output limit, or undefined when it states none:
 * - OpenAI chat `max_completion_tokens` (or the older `max_tokens`), per choice, so × `n`;
 * - OpenAI Responses `max_output_tokens`;
 * - Anthropic Messages `max_tokens` (thinking included);
 * - Gemini `generationConfig.maxOutputTokens`, per candidate, so × `candidateCount`;
 * - Bedrock Converse `inferenceConfig.maxTokens`.
 * A few property reads: called only when an estimate is needed, or once per translated attempt.
 */
export function statedOutputLimit(body: unknown): number | undefined {
  if (!body || typeof body !== 'object') return undefined;
  const fields = body as Record<string, unknown>;
  const chat = positive(fields.max_completion_tokens) ?? positive(fields.max_tokens);
  if (chat !== undefined) return chat * (positive(fields.n) ?? 1);
  const responses = positive(fields.max_output_tokens);
  if (responses !== undefined) return responses;
  // Google's JSON mapping also takes the proto's snake_case names.
  const generation = (fields.generationConfig ?? fields.generation_config) as Record<string, unknown> | undefined;
  if (generation && typeof generation === 'object') {
    const gemini = positive(generation.maxOutputTokens ?? generation.max_output_tokens);
    if (gemini !== undefined) return gemini * (positive(generation.candidateCount ?? generation.candidate_count) ?? 1);
  }
  const inference = fields.inferenceConfig as Record<string, unknown> | undefined;
  if (inference && typeof inference === 'object') return positive(inference.maxTokens);
  return undefined;
}

function positive(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isSafeInteger(value) && value > 0 ? value : undefined;
}
