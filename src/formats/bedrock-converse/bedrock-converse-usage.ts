// Converse usage ⇄ hub usage. Like Anthropic's, Bedrock's inputTokens leaves out the tokens read from and
// written to the prompt cache (totalTokens = input + output + cacheRead + cacheWrite); the hub's
// inputTokens is the whole prompt, so they are added going in and subtracted going out. Claude's cache writes
// are split by lifetime in `cacheDetails` ([{ttl: "1h" | "5m", inputTokens}]): the one-hour ones cost more.
import type { HubUsage } from '../../hub/hub-response.ts';
import { asObject, countField, knownCounts } from '../shared/usage-fields.ts';

/** Reads Converse's `usage` (the answer's, or a stream's metadata event); what it leaves out is unknown. */
export function converseUsageToHub(wire: unknown): HubUsage {
  const usage = asObject(wire);
  if (!usage) return {};
  const cacheRead = countField(usage.cacheReadInputTokens);
  const cacheWrite = countField(usage.cacheWriteInputTokens);
  const input = countField(usage.inputTokens);
  return knownCounts<HubUsage>({
    inputTokens: input === undefined ? undefined : input + (cacheRead ?? 0) + (cacheWrite ?? 0),
    cachedInputTokens: cacheRead,
    cacheWriteTokens: cacheWrite,
    cacheWrite1hTokens: oneHourWrites(usage.cacheDetails),
    outputTokens: countField(usage.outputTokens),
    // Converse does not report reasoning tokens apart: they are inside outputTokens.
    reasoningTokens: undefined,
  });
}

/** The one-hour entries of `cacheDetails`, summed; undefined when there are none. */
function oneHourWrites(details: unknown): number | undefined {
  if (!Array.isArray(details)) return undefined;
  let total: number | undefined;
  for (const detail of details) {
    const entry = asObject(detail);
    const tokens = entry?.ttl === '1h' ? countField(entry.inputTokens) : undefined;
    if (tokens !== undefined) total = (total ?? 0) + tokens;
  }
  // None written for an hour is the same as no split: nothing to price apart.
  return total || undefined;
}

export function hubUsageToConverse(usage: HubUsage): Record<string, unknown> {
  const cached = usage.cachedInputTokens ?? 0;
  const cacheWrite = usage.cacheWriteTokens ?? 0;
  const oneHour = Math.min(usage.cacheWrite1hTokens ?? 0, cacheWrite);
  const input = Math.max(0, (usage.inputTokens ?? 0) - cached - cacheWrite);
  const output = usage.outputTokens ?? 0;
  return {
    inputTokens: input,
    outputTokens: output,
    totalTokens: input + output + cached + cacheWrite,
    ...(cached > 0 ? { cacheReadInputTokens: cached } : {}),
    ...(cacheWrite > 0 ? { cacheWriteInputTokens: cacheWrite } : {}),
    // Sorted by lifetime, the longer first, as Bedrock sends them; only the lifetimes written.
    ...(cacheWrite > 0 ? { cacheDetails: [
      ...(oneHour > 0 ? [{ ttl: '1h', inputTokens: oneHour }] : []),
      ...(cacheWrite - oneHour > 0 ? [{ ttl: '5m', inputTokens: cacheWrite - oneHour }] : []),
    ] } : {}),
  };
}
