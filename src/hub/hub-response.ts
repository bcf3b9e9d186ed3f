// The canonical whole response: content parts, a finish reason that keeps the provider's raw value, usage.
import type { HubReasoningPart, HubTextPart, HubToolCallPart, HubWebTool } from './hub-request.ts';

export type HubUnifiedFinishReason = 'stop' | 'length' | 'tool-calls' | 'content-filter' | 'error' | 'other';

export interface HubFinishReason {
  unified: HubUnifiedFinishReason;
  /** The provider's own value (`end_turn`, `MAX_TOKENS`, …), for logs and same-format round trips. */
  raw: string | null;
}

/** A finish reason as a trace span names it: the provider's own value, else the gateway's unified one. */
export function finishReasonName(reason: HubFinishReason): string {
  return reason.raw ?? reason.unified;
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
  /** Searches a provider's hosted web search ran (Anthropic's web_search_requests, Gemini's search queries). */
  webSearches?: number;
  /** Pages a provider's hosted web fetch read (Anthropic's web_fetch_requests, Gemini's urlContext URLs): not billed apart. */
  webFetches?: number;
}

/** Nothing reported. */
export const unreportedUsage = (): HubUsage => ({});

/**
 * A tool the provider ran on its own servers while answering (its hosted web search or web fetch): the call,
 * as the provider made it. Its result follows as a HubServerToolResultPart with the same id.
 */
export interface HubServerToolCallPart {
  type: 'server-tool-call';
  id: string;
  tool: HubWebTool;
  /** web-search: what was searched for (one or more queries); empty for a web-fetch. */
  queries: string[];
  /** web-fetch: the page read. */
  url?: string;
}

export interface HubWebSource {
  url: string;
  title?: string;
  /** Anthropic's page_age ("3 days ago"), when told. */
  pageAge?: string;
}

export interface HubServerToolResultPart {
  type: 'server-tool-result';
  callId: string;
  tool: HubWebTool;
  /** web-search: the pages found; web-fetch: the page read. */
  sources: HubWebSource[];
  /**
   * The error code when the tool failed: Anthropic's (web_search_tool_result_error, web_fetch_tool_result_error),
   * the one vocabulary of these errors; another provider's reader maps its own to the closest.
   */
  errorCode?: string;
}

export type HubResponseContent = HubTextPart | HubReasoningPart | HubToolCallPart | HubServerToolCallPart | HubServerToolResultPart;

export interface HubResponse {
  id: string;
  model: string;
  content: HubResponseContent[];
  finishReason: HubFinishReason;
  usage: HubUsage;
}
