// What one call is billed by, in the hub's convention: inputTokens counts every input token, cached ones
// included; outputTokens counts every output token, reasoning ones included. Every field is known here:
// what an upstream left unreported was counted by the gateway (resolve-usage.ts) before it got this far.
export interface Usage {
  inputTokens: number;
  cachedInputTokens: number;
  cacheWriteTokens: number;
  /** The part of cacheWriteTokens written to a one-hour cache (priced apart); absent: none. */
  cacheWrite1hTokens?: number;
  outputTokens: number;
  reasoningTokens: number;
  /** Quantities other endpoints bill by: images made, audio transcribed, characters spoken, searches. */
  images?: { count: number; size: string; quality: string };
  audioMs?: number;
  characters?: number;
  searches?: number;
  /** Pages a hosted web fetch read: never billed apart (their text is in inputTokens), told to the client. */
  webFetches?: number;
  /** Requests billed at the per-request price: 1 for a billed call (the default), 0 for one that is not. */
  requests?: number;
  /** True when the gateway counted input or output tokens itself because the upstream did not report them. */
  tokensCounted?: boolean;
}

export const emptyUsage = (): Usage => ({
  inputTokens: 0,
  cachedInputTokens: 0,
  cacheWriteTokens: 0,
  outputTokens: 0,
  reasoningTokens: 0,
});
