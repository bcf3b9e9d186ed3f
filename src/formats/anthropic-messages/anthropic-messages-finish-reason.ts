// Anthropic stop_reason ⇄ the hub's unified finish reason, raw value kept.
import type { HubFinishReason, HubUnifiedFinishReason } from '../../hub/hub-response.ts';

const UNIFIED: Record<string, HubUnifiedFinishReason> = {
  end_turn: 'stop',
  stop_sequence: 'stop',
  pause_turn: 'stop',
  max_tokens: 'length',
  model_context_window_exceeded: 'length',
  tool_use: 'tool-calls',
  refusal: 'content-filter',
};

/**
 * @see https://docs.anthropic.com/en/api/messages#response-stop-reason
 */
export function mapAnthropicStopReason(raw: string | null | undefined): HubFinishReason {
  const value = raw ?? null;
  return { unified: (value !== null ? UNIFIED[value] : undefined) ?? 'other', raw: value };
}

const ANTHROPIC_FOR_UNIFIED: Record<HubUnifiedFinishReason, string> = {
  stop: 'end_turn',
  length: 'max_tokens',
  'tool-calls': 'tool_use',
  'content-filter': 'refusal',
  error: 'end_turn',
  other: 'end_turn',
};

/** Anthropic's own raw value survives a round trip (stop_sequence, pause_turn); others map by meaning. */
export function hubFinishReasonToAnthropic(reason: HubFinishReason): string {
  if (reason.raw !== null && UNIFIED[reason.raw] === reason.unified) return reason.raw;
  return ANTHROPIC_FOR_UNIFIED[reason.unified];
}
