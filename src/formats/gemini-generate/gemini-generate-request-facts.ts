// What the pipeline reads from a Gemini generateContent body before sending it.
import { isObject, positiveCount, requestFacts } from '../shared/request-facts.ts';

/** `generationConfig.maxOutputTokens` limits each candidate, so × `candidateCount`; Google's JSON mapping also takes the proto's snake_case names. */
function geminiOutputLimit(body: Record<string, unknown>): number | undefined {
  const config = body.generationConfig ?? body.generation_config;
  if (!isObject(config)) return undefined;
  const perAnswer = positiveCount(config.maxOutputTokens ?? config.max_output_tokens);
  return perAnswer === undefined ? undefined : perAnswer * (positiveCount(config.candidateCount ?? config.candidate_count) ?? 1);
}

export const geminiGenerateRequestFacts = requestFacts(geminiOutputLimit, { turns: ['contents'], other: ['systemInstruction', 'tools'] });
