// Gemini finishReason ⇄ the hub's unified finish reason, raw value kept.
import type { HubFinishReason, HubUnifiedFinishReason } from '../../hub/hub-response.ts';

const UNIFIED: Record<string, HubUnifiedFinishReason> = {
  STOP: 'stop',
  MAX_TOKENS: 'length',
  SAFETY: 'content-filter',
  RECITATION: 'content-filter',
  BLOCKLIST: 'content-filter',
  PROHIBITED_CONTENT: 'content-filter',
  SPII: 'content-filter',
  IMAGE_SAFETY: 'content-filter',
  IMAGE_PROHIBITED_CONTENT: 'content-filter',
  IMAGE_RECITATION: 'content-filter',
  MALFORMED_FUNCTION_CALL: 'error',
  UNEXPECTED_TOOL_CALL: 'error',
  TOO_MANY_TOOL_CALLS: 'error',
  LANGUAGE: 'other',
  OTHER: 'other',
  FINISH_REASON_UNSPECIFIED: 'other',
};

/**
 * Gemini says STOP after function calls too; the hub calls that tool-calls, as the other formats do.
 * @see https://ai.google.dev/api/generate-content#FinishReason
 */
export function mapGeminiFinishReason(raw: string | null | undefined, hasToolCalls: boolean): HubFinishReason {
  const value = raw ?? null;
  const unified = (value !== null ? UNIFIED[value] : undefined) ?? 'other';
  return { unified: unified === 'stop' && hasToolCalls ? 'tool-calls' : unified, raw: value };
}

const GEMINI_FOR_UNIFIED: Record<HubUnifiedFinishReason, string> = {
  stop: 'STOP',
  length: 'MAX_TOKENS',
  'tool-calls': 'STOP',
  'content-filter': 'SAFETY',
  error: 'OTHER',
  other: 'OTHER',
};

export function hubFinishReasonToGemini(reason: HubFinishReason): string {
  if (reason.raw !== null && UNIFIED[reason.raw] !== undefined) {
    const unified = UNIFIED[reason.raw];
    if (unified === reason.unified || (reason.raw === 'STOP' && reason.unified === 'tool-calls')) return reason.raw;
  }
  return GEMINI_FOR_UNIFIED[reason.unified];
}
