// Converse stopReason ⇄ the hub's unified finish reason, raw value kept.
// @see https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_Converse.html#API_runtime_Converse_ResponseSyntax
import type { HubFinishReason, HubUnifiedFinishReason } from '../../hub/hub-response.ts';

const UNIFIED: Record<string, HubUnifiedFinishReason> = {
  end_turn: 'stop',
  stop_sequence: 'stop',
  max_tokens: 'length',
  model_context_window_exceeded: 'length',
  tool_use: 'tool-calls',
  guardrail_intervened: 'content-filter',
  content_filtered: 'content-filter',
};

export function mapConverseStopReason(raw: string | null | undefined): HubFinishReason {
  const value = raw ?? null;
  return { unified: (value !== null ? UNIFIED[value] : undefined) ?? 'other', raw: value };
}

const CONVERSE_FOR_UNIFIED: Record<HubUnifiedFinishReason, string> = {
  stop: 'end_turn',
  length: 'max_tokens',
  'tool-calls': 'tool_use',
  'content-filter': 'content_filtered',
  error: 'end_turn',
  other: 'end_turn',
};

/** Converse's own raw value survives a round trip (stop_sequence, guardrail_intervened); others map by meaning. */
export function hubFinishReasonToConverse(reason: HubFinishReason): string {
  if (reason.raw !== null && UNIFIED[reason.raw] === reason.unified) return reason.raw;
  return CONVERSE_FOR_UNIFIED[reason.unified];
}
