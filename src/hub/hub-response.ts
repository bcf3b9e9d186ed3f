// The canonical whole response: content parts, a finish reason that keeps the provider's raw value, usage.
import type { HubReasoningPart, HubTextPart, HubToolCallPart } from './hub-request.ts';

export type HubUnifiedFinishReason = 'stop' | 'length' | 'tool-calls' | 'content-filter' | 'error' | 'other';

export interface HubFinishReason {
  unified: HubUnifiedFinishReason;
  /** The provider's own value (`end_turn`, `MAX_TOKENS`, …), for logs and same-format round trips. */
  raw: string | null;
}

/**
 * Token usage as the upstream reported it, in one convention whatever the provider's:
 * - inputTokens is the whole prompt, cached tokens included (OpenAI's and Gemini's convention; Anthropic's
 *   input_tokens leaves out cache reads and writes, so its converter adds them);
 * - cachedInputTokens (read from cache) and cacheWriteTokens are parts of inputTokens; cacheWrite1hTokens is
 *   the part of cacheWriteTokens written to a one-hour cache (Anthropic's split, on Bedrock and Vertex too);
 * - outputTokens includes reasoningTokens (OpenAI's and Anthropic's convention; Gemini counts thoughts apart).
 * A field the upstream did not report is absent: unknown, which is not zero. The relay fills unknown input
 * and output from what it sent and delivered (src/metering/resolve-usage.ts) before anything is billed or
 * written to the client, so a writer (hubToResponse, hubToStream) always receives every field.
 */
export interface HubUsage {
  inputTokens?: number;
  cachedInputTokens?: number;
  cacheWriteTokens?: number;
  cacheWrite1hTokens?: number;
  outputTokens?: number;
  reasoningTokens?: number;
}

/** Nothing reported. */
export const unreportedUsage = (): HubUsage => ({});

export type HubResponseContent = HubTextPart | HubReasoningPart | HubToolCallPart;

export interface HubResponse {
  id: string;
  model: string;
  content: HubResponseContent[];
  finishReason: HubFinishReason;
  usage: HubUsage;
}
