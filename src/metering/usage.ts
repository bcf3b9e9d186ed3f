// Token usage of one call, in the hub's convention: inputTokens counts every input token, cached ones
// included; outputTokens counts every output token, reasoning ones included.
export interface Usage {
  inputTokens: number;
  cachedInputTokens: number;
  cacheWriteTokens: number;
  outputTokens: number;
  reasoningTokens: number;
  /** Quantities other endpoints bill by: images made, audio transcribed, characters spoken, searches. */
  images?: { count: number; size: string; quality: string };
  audioMs?: number;
  characters?: number;
  searches?: number;
}

export const emptyUsage = (): Usage => ({
  inputTokens: 0,
  cachedInputTokens: 0,
  cacheWriteTokens: 0,
  outputTokens: 0,
  reasoningTokens: 0,
});

interface OpenAIUsageWire {
  prompt_tokens?: number;
  completion_tokens?: number;
  prompt_tokens_details?: { cached_tokens?: number } | null;
  completion_tokens_details?: { reasoning_tokens?: number } | null;
}

/** Reads OpenAI's `usage` object (chat and completions). */
export function usageFromOpenAI(wire: unknown): Usage | null {
  if (!wire || typeof wire !== 'object') return null;
  const usage = wire as OpenAIUsageWire;
  return {
    inputTokens: usage.prompt_tokens ?? 0,
    cachedInputTokens: usage.prompt_tokens_details?.cached_tokens ?? 0,
    cacheWriteTokens: 0,
    outputTokens: usage.completion_tokens ?? 0,
    reasoningTokens: usage.completion_tokens_details?.reasoning_tokens ?? 0,
  };
}
