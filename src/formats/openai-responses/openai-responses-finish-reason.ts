// A Response's status (and incomplete_details.reason) ⇄ the hub's unified finish reason, raw value kept.
// The Responses API has no finish reason of its own: a completed response that ends in function calls is
// the hub's tool-calls, and an incomplete one says why.
import type { HubFinishReason, HubUnifiedFinishReason } from '../../hub/hub-response.ts';

/**
 * @see https://platform.openai.com/docs/api-reference/responses/object#responses/object-status
 * raw is the incomplete reason when there is one (`max_output_tokens`, `content_filter`), else the status.
 */
export function mapResponsesStatus(status: string | null | undefined, incompleteReason: string | null | undefined, hasToolCalls: boolean): HubFinishReason {
  let unified: HubUnifiedFinishReason;
  switch (status ?? 'completed') {
    case 'completed':
      unified = hasToolCalls ? 'tool-calls' : 'stop';
      break;
    case 'incomplete':
      unified = incompleteReason === 'max_output_tokens' ? 'length' : incompleteReason === 'content_filter' ? 'content-filter' : 'other';
      break;
    case 'failed':
      unified = 'error';
      break;
    default:
      unified = 'other';
  }
  return { unified, raw: incompleteReason ?? status ?? null };
}

export interface ResponsesStatus {
  status: 'completed' | 'incomplete';
  incomplete_details: { reason: 'max_output_tokens' | 'content_filter' } | null;
}

/** A length cut and a content filter make the response incomplete; everything else completed it. */
export function hubFinishReasonToResponses(reason: HubFinishReason): ResponsesStatus {
  if (reason.unified === 'length') return { status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' } };
  if (reason.unified === 'content-filter') return { status: 'incomplete', incomplete_details: { reason: 'content_filter' } };
  return { status: 'completed', incomplete_details: null };
}
