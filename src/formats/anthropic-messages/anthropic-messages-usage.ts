// Anthropic usage ⇄ hub usage. Anthropic's input_tokens leaves out cache reads and writes; the hub's
// inputTokens is the whole prompt, so the three are added going in and subtracted going out.
import type { HubUsage } from '../../hub/hub-response.ts';
import type { AnthropicUsage } from './anthropic-messages-schema.ts';
import { asObject, countField, knownCounts } from '../shared/usage-fields.ts';

/** Reads Anthropic's `usage`; a count it leaves out is unknown (absent), not zero. */
export function anthropicUsageToHub(wire: unknown): HubUsage {
  const usage = asObject(wire);
  if (!usage) return {};
  const cacheRead = countField(usage.cache_read_input_tokens);
  const cacheWrite = countField(usage.cache_creation_input_tokens);
  const input = countField(usage.input_tokens);
  return knownCounts<HubUsage>({
    inputTokens: input === undefined ? undefined : input + (cacheRead ?? 0) + (cacheWrite ?? 0),
    cachedInputTokens: cacheRead,
    cacheWriteTokens: cacheWrite,
    outputTokens: countField(usage.output_tokens),
    reasoningTokens: countField(asObject(usage.output_tokens_details)?.thinking_tokens),
  });
}

/** A stream reports usage twice (message_start, message_delta); later non-null values win. */
export function mergeAnthropicUsage(base: AnthropicUsage, next: AnthropicUsage | null | undefined): AnthropicUsage {
  if (!next) return base;
  const merged: AnthropicUsage = { ...base };
  for (const [key, value] of Object.entries(next)) if (value !== null && value !== undefined) (merged as Record<string, unknown>)[key] = value;
  return merged;
}

export function hubUsageToAnthropic(usage: HubUsage): Record<string, number> {
  const cached = usage.cachedInputTokens ?? 0;
  const cacheWrite = usage.cacheWriteTokens ?? 0;
  return {
    input_tokens: Math.max(0, (usage.inputTokens ?? 0) - cached - cacheWrite),
    output_tokens: usage.outputTokens ?? 0,
    cache_creation_input_tokens: cacheWrite,
    cache_read_input_tokens: cached,
  };
}
