// OpenAI usage ⇄ hub usage. OpenAI's conventions are the hub's: prompt_tokens includes cached tokens and
// completion_tokens includes reasoning tokens, so only the names change.
import type { HubUsage } from '../../hub/hub-response.ts';
import type { OpenAIUsage } from './openai-chat-schema.ts';

export function openaiUsageToHub(usage: OpenAIUsage | null | undefined): HubUsage {
  return {
    inputTokens: usage?.prompt_tokens ?? 0,
    cachedInputTokens: usage?.prompt_tokens_details?.cached_tokens ?? 0,
    cacheWriteTokens: usage?.prompt_tokens_details?.cache_write_tokens ?? 0,
    outputTokens: usage?.completion_tokens ?? 0,
    reasoningTokens: usage?.completion_tokens_details?.reasoning_tokens ?? 0,
  };
}

export function hubUsageToOpenai(usage: HubUsage): Record<string, unknown> {
  const promptDetails: Record<string, number> = { cached_tokens: usage.cachedInputTokens };
  if (usage.cacheWriteTokens > 0) promptDetails.cache_write_tokens = usage.cacheWriteTokens;
  return {
    prompt_tokens: usage.inputTokens,
    completion_tokens: usage.outputTokens,
    total_tokens: usage.inputTokens + usage.outputTokens,
    prompt_tokens_details: promptDetails,
    completion_tokens_details: { reasoning_tokens: usage.reasoningTokens },
  };
}
