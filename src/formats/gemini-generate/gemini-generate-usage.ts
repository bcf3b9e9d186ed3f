// Gemini usageMetadata ⇄ hub usage. promptTokenCount includes cached tokens, as the hub's input does;
// candidatesTokenCount leaves out thoughtsTokenCount, while the hub's output includes reasoning.
import type { HubUsage } from '../../hub/hub-response.ts';
import type { GeminiUsage } from './gemini-generate-schema.ts';

export function geminiUsageToHub(usage: GeminiUsage | null | undefined): HubUsage {
  const thoughts = usage?.thoughtsTokenCount ?? 0;
  return {
    inputTokens: usage?.promptTokenCount ?? 0,
    cachedInputTokens: usage?.cachedContentTokenCount ?? 0,
    cacheWriteTokens: 0,
    outputTokens: (usage?.candidatesTokenCount ?? 0) + thoughts,
    reasoningTokens: thoughts,
  };
}

export function hubUsageToGemini(usage: HubUsage): Record<string, number> {
  const out: Record<string, number> = {
    promptTokenCount: usage.inputTokens,
    candidatesTokenCount: Math.max(0, usage.outputTokens - usage.reasoningTokens),
    totalTokenCount: usage.inputTokens + usage.outputTokens,
  };
  if (usage.cachedInputTokens > 0) out.cachedContentTokenCount = usage.cachedInputTokens;
  if (usage.reasoningTokens > 0) out.thoughtsTokenCount = usage.reasoningTokens;
  return out;
}
