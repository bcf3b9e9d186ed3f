// Responses usage ⇄ hub usage. The conventions are the hub's (input_tokens includes cached tokens,
// output_tokens includes reasoning tokens), so only the names change. Used for passthrough and translation.
import type { HubUsage } from '../../hub/hub-response.ts';
import { asObject, countField, knownCounts } from '../shared/usage-fields.ts';

/** Reads the Responses `usage` object; a count it leaves out is unknown (absent), not zero. */
export function openaiResponsesUsageToHub(wire: unknown): HubUsage {
  const usage = asObject(wire);
  if (!usage) return {};
  const input = asObject(usage.input_tokens_details);
  const output = asObject(usage.output_tokens_details);
  return knownCounts<HubUsage>({
    inputTokens: countField(usage.input_tokens),
    cachedInputTokens: countField(input?.cached_tokens),
    cacheWriteTokens: countField(input?.cache_write_tokens),
    outputTokens: countField(usage.output_tokens),
    reasoningTokens: countField(output?.reasoning_tokens),
  });
}

export function hubUsageToOpenaiResponses(usage: HubUsage): Record<string, unknown> {
  const input = usage.inputTokens ?? 0;
  const output = usage.outputTokens ?? 0;
  return {
    input_tokens: input,
    input_tokens_details: { cached_tokens: usage.cachedInputTokens ?? 0, cache_write_tokens: usage.cacheWriteTokens ?? 0 },
    output_tokens: output,
    output_tokens_details: { reasoning_tokens: usage.reasoningTokens ?? 0 },
    total_tokens: input + output,
  };
}
