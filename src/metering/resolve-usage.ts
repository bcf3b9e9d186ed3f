// Reported usage (with unknowns) + what the gateway sent and delivered → the usage a call is billed by.
// An upstream that reports nothing (many self-hosted OpenAI-compatible servers, proxies that strip usage,
// a stream cut short) is counted instead, field by field, so a call that delivered output is never
// billed as zero. Counting tokenises text (gpt-tokenizer), so it runs only for a field that is unknown.
import type { HubUsage } from '../hub/hub-response.ts';
import type { Usage } from './usage.ts';

interface UsageCounts {
  /** Tokens of the prompt that was sent. */
  prompt(): number;
  /** Tokens of what reached the client: text, reasoning and tool-call arguments. */
  output(): number;
  /**
   * The most output tokens the request sent upstream allowed (its format's requestFacts.outputLimit), if it
   * stated a limit: caps the counted output, never a reported one. Read only when output is counted.
   */
  outputLimit?(): number | undefined;
}

/**
 * Input: the reported count, unless it is unknown or zero (no prompt is zero tokens; a zero means the
 * upstream did not count). Output: the reported count, unless it is unknown, or zero while output was
 * delivered; then the count of what was delivered, at most the request's own output limit. Cached, cache-write and reasoning tokens are parts of those totals that cannot be counted from
 * text: unknown ones are 0, which bills them at the full input or output price.
 */
export function resolveUsage(reported: HubUsage | null | undefined, counts: UsageCounts): Usage {
  const usage = reported ?? {};
  let counted = false;
  const cachedInputTokens = usage.cachedInputTokens ?? 0;
  const cacheWriteTokens = usage.cacheWriteTokens ?? 0;
  let inputTokens = usage.inputTokens ?? 0;
  if (inputTokens === 0) {
    inputTokens = counts.prompt();
    counted = inputTokens > 0;
  }
  let outputTokens = usage.outputTokens;
  if (outputTokens === undefined || outputTokens === 0) {
    let delivered = counts.output();
    // An estimate can run above what the upstream could have produced; the request's limit bounds it.
    const limit = delivered > 0 ? counts.outputLimit?.() : undefined;
    if (limit !== undefined && delivered > limit) delivered = limit;
    if (delivered > 0 || outputTokens === undefined) {
      counted ||= delivered > 0;
      outputTokens = delivered;
    }
  }
  const result: Usage = {
    inputTokens: Math.max(inputTokens, cachedInputTokens + cacheWriteTokens),
    cachedInputTokens,
    cacheWriteTokens,
    outputTokens,
    reasoningTokens: Math.min(usage.reasoningTokens ?? 0, outputTokens),
  };
  if (counted) result.tokensCounted = true;
  if (usage.cacheWrite1hTokens) result.cacheWrite1hTokens = Math.min(usage.cacheWrite1hTokens, cacheWriteTokens);
  // A hosted web search is billed per search where the model has a per_search price.
  if (usage.webSearches) result.searches = usage.webSearches;
  if (usage.webFetches) result.webFetches = usage.webFetches;
  return result;
}

/** Sums the usage of the segments of one answer (a stream continued on another channel). */
export function addUsages(usages: readonly Usage[]): Usage {
  const sum: Usage = { inputTokens: 0, cachedInputTokens: 0, cacheWriteTokens: 0, outputTokens: 0, reasoningTokens: 0 };
  for (const usage of usages) {
    sum.inputTokens += usage.inputTokens;
    sum.cachedInputTokens += usage.cachedInputTokens;
    sum.cacheWriteTokens += usage.cacheWriteTokens;
    if (usage.cacheWrite1hTokens) sum.cacheWrite1hTokens = (sum.cacheWrite1hTokens ?? 0) + usage.cacheWrite1hTokens;
    sum.outputTokens += usage.outputTokens;
    sum.reasoningTokens += usage.reasoningTokens;
    if (usage.tokensCounted) sum.tokensCounted = true;
    if (usage.searches) sum.searches = (sum.searches ?? 0) + usage.searches;
    if (usage.webFetches) sum.webFetches = (sum.webFetches ?? 0) + usage.webFetches;
  }
  return sum;
}
