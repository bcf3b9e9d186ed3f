// Responses usage ⇄ hub usage. The conventions are the hub's (input_tokens includes cached tokens,
// output_tokens includes reasoning tokens), so only the names change.
import type { HubUsage } from '../../hub/hub-response.ts';
import type { ResponsesUsage } from './openai-responses-schema.ts';

export function openaiResponsesUsageToHub(usage: ResponsesUsage | null | undefined): HubUsage {
  return {
    inputTokens: usage?.input_tokens ?? 0,
    cachedInputTokens: usage?.input_tokens_details?.cached_tokens ?? 0,
    cacheWriteTokens: usage?.input_tokens_details?.cache_write_tokens ?? 0,
    outputTokens: usage?.output_tokens ?? 0,
    reasoningTokens: usage?.output_tokens_details?.reasoning_tokens ?? 0,
  };
}

export function hubUsageToOpenaiResponses(usage: HubUsage): Record<string, unknown> {
  return {
    input_tokens: usage.inputTokens,
    input_tokens_details: { cached_tokens: usage.cachedInputTokens, cache_write_tokens: usage.cacheWriteTokens },
    output_tokens: usage.outputTokens,
    output_tokens_details: { reasoning_tokens: usage.reasoningTokens },
    total_tokens: usage.inputTokens + usage.outputTokens,
  };
}
