// OpenAI usage ⇄ hub usage. OpenAI's conventions are the hub's: prompt_tokens includes cached tokens and
// completion_tokens includes reasoning tokens, so only the names change. The reader is the one the relay
// uses for every OpenAI-format answer (chat, completions, embeddings), passed through or translated.
import type { HubUsage } from '../../hub/hub-response.ts';
import { asObject, countField, knownCounts } from '../shared/usage-fields.ts';

/** Reads OpenAI's `usage` object; a count it leaves out is unknown (absent), not zero. */
export function openaiUsageToHub(wire: unknown): HubUsage {
  const usage = asObject(wire);
  if (!usage) return {};
  const prompt = asObject(usage.prompt_tokens_details);
  const completion = asObject(usage.completion_tokens_details);
  return knownCounts<HubUsage>({
    inputTokens: countField(usage.prompt_tokens),
    cachedInputTokens: countField(prompt?.cached_tokens),
    cacheWriteTokens: countField(prompt?.cache_write_tokens),
    outputTokens: countField(usage.completion_tokens),
    reasoningTokens: countField(completion?.reasoning_tokens),
  });
}

export function hubUsageToOpenai(usage: HubUsage): Record<string, unknown> {
  const input = usage.inputTokens ?? 0;
  const output = usage.outputTokens ?? 0;
  const promptDetails: Record<string, number> = { cached_tokens: usage.cachedInputTokens ?? 0 };
  if (usage.cacheWriteTokens) promptDetails.cache_write_tokens = usage.cacheWriteTokens;
  return {
    prompt_tokens: input,
    completion_tokens: output,
    total_tokens: input + output,
    prompt_tokens_details: promptDetails,
    completion_tokens_details: { reasoning_tokens: usage.reasoningTokens ?? 0 },
  };
}
