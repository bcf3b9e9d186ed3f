// Anthropic usage ⇄ hub usage. Anthropic's input_tokens leaves out cache reads and writes; the hub's
// inputTokens is the whole prompt, so the three are added going in and subtracted going out. Cache writes are
// split by lifetime in `cache_creation` (ephemeral_5m_input_tokens / ephemeral_1h_input_tokens: the one-hour
// ones cost more); a stream carries it in message_start only, and message_delta's cumulative counts leave
// it out, so the merged usage keeps message_start's.
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
    // None written for an hour is the same as the split left out: nothing to price apart.
    cacheWrite1hTokens: countField(asObject(usage.cache_creation)?.ephemeral_1h_input_tokens) || undefined,
    outputTokens: countField(usage.output_tokens),
    reasoningTokens: countField(asObject(usage.output_tokens_details)?.thinking_tokens),
    webSearches: countField(asObject(usage.server_tool_use)?.web_search_requests) || undefined,
    webFetches: countField(asObject(usage.server_tool_use)?.web_fetch_requests) || undefined,
  });
}

/** A stream reports usage twice (message_start, message_delta); later non-null values win. */
export function mergeAnthropicUsage(base: AnthropicUsage, next: AnthropicUsage | null | undefined): AnthropicUsage {
  if (!next) return base;
  const merged: AnthropicUsage = { ...base };
  for (const [key, value] of Object.entries(next)) if (value !== null && value !== undefined) (merged as Record<string, unknown>)[key] = value;
  return merged;
}

export function hubUsageToAnthropic(usage: HubUsage): Record<string, unknown> {
  const cached = usage.cachedInputTokens ?? 0;
  const cacheWrite = usage.cacheWriteTokens ?? 0;
  const oneHour = Math.min(usage.cacheWrite1hTokens ?? 0, cacheWrite);
  const wire: Record<string, unknown> = {
    input_tokens: Math.max(0, (usage.inputTokens ?? 0) - cached - cacheWrite),
    output_tokens: usage.outputTokens ?? 0,
    cache_creation_input_tokens: cacheWrite,
    cache_read_input_tokens: cached,
  };
  // The split by lifetime only when some writes were for an hour: without it every write is a 5-minute one.
  if (oneHour > 0) wire.cache_creation = { ephemeral_5m_input_tokens: cacheWrite - oneHour, ephemeral_1h_input_tokens: oneHour };
  // Hosted searches and fetches, as the upstream reported them (or as the gateway billed them: the metering
  // usage's `searches`); Anthropic's server_tool_use names both counts.
  const searches = usage.webSearches ?? (usage as { searches?: number }).searches ?? 0;
  const fetches = usage.webFetches ?? 0;
  if (searches || fetches) wire.server_tool_use = { web_search_requests: searches, web_fetch_requests: fetches };
  return wire;
}
