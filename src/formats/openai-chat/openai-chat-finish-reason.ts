// OpenAI finish_reason ⇄ the hub's unified finish reason, raw value kept.
import type { HubFinishReason, HubUnifiedFinishReason } from '../../hub/hub-response.ts';

/**
 * @see https://platform.openai.com/docs/api-reference/chat/object#chat/object-choices
 */
export function mapOpenaiFinishReason(raw: string | null | undefined): HubFinishReason {
  const value = raw ?? null;
  let unified: HubUnifiedFinishReason;
  switch (value) {
    case 'stop':
      unified = 'stop';
      break;
    case 'length':
      unified = 'length';
      break;
    case 'tool_calls':
    case 'function_call':
      unified = 'tool-calls';
      break;
    case 'content_filter':
      unified = 'content-filter';
      break;
    default:
      unified = 'other';
  }
  return { unified, raw: value };
}

const OPENAI_FOR_UNIFIED: Record<HubUnifiedFinishReason, string> = {
  stop: 'stop',
  length: 'length',
  'tool-calls': 'tool_calls',
  'content-filter': 'content_filter',
  // OpenAI has no error or other value; stop is what its clients expect at a normal end.
  error: 'stop',
  other: 'stop',
};

export function hubFinishReasonToOpenai(reason: HubFinishReason): string {
  return OPENAI_FOR_UNIFIED[reason.unified];
}
