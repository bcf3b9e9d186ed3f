// What the pipeline reads from an OpenAI chat (or legacy completions) body before sending it.
import { positiveCount, requestFacts } from '../shared/request-facts.ts';

/** `max_completion_tokens` (or the older `max_tokens`; legacy completions' only one) limits each choice, so × `n`. */
function openaiChatOutputLimit(body: Record<string, unknown>): number | undefined {
  const perAnswer = positiveCount(body.max_completion_tokens) ?? positiveCount(body.max_tokens);
  return perAnswer === undefined ? undefined : perAnswer * (positiveCount(body.n) ?? 1);
}

export const openaiChatRequestFacts = requestFacts(openaiChatOutputLimit, { turns: ['messages'], other: ['prompt', 'tools'] });
