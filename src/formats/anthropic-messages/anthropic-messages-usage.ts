// Anthropic usage ⇄ hub usage. Anthropic's input_tokens leaves out cache reads and writes; the hub's
// inputTokens is the whole prompt, so the three are added going in and subtracted going out.
import type { HubUsage } from '../../hub/hub-response.ts';
import type { AnthropicUsage } from './anthropic-messages-schema.ts';

export function anthropicUsageToHub(usage: AnthropicUsage | null | undefined): HubUsage {
  const cacheRead = usage?.cache_read_input_tokens ?? 0;
  const cacheWrite = usage?.cache_creation_input_tokens ?? 0;
  return {
    inputTokens: (usage?.input_tokens ?? 0) + cacheRead + cacheWrite,
    cachedInputTokens: cacheRead,
    cacheWriteTokens: cacheWrite,
    outputTokens: usage?.output_tokens ?? 0,
    reasoningTokens: usage?.output_tokens_details?.thinking_tokens ?? 0,
  };
}

/** A stream reports usage twice (message_start, message_delta); later non-null values win. */
export function mergeAnthropicUsage(base: AnthropicUsage, next: AnthropicUsage | null | undefined): AnthropicUsage {
  if (!next) return base;
  const merged: AnthropicUsage = { ...base };
  for (const [key, value] of Object.entries(next)) if (value !== null && value !== undefined) (merged as Record<string, unknown>)[key] = value;
  return merged;
}

export function hubUsageToAnthropic(usage: HubUsage): Record<string, number> {
  return {
    input_tokens: Math.max(0, usage.inputTokens - usage.cachedInputTokens - usage.cacheWriteTokens),
    output_tokens: usage.outputTokens,
    cache_creation_input_tokens: usage.cacheWriteTokens,
    cache_read_input_tokens: usage.cachedInputTokens,
  };
}
