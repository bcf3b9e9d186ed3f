// A whole toy-chat answer ⇄ the hub.
import type { HubResponse } from '../../../src/hub/hub-response.ts';
import type { HubToResponseContext } from '../../../src/hub/hub-format.ts';
import { upstreamPayloadError } from '../../../src/hub/hub-errors.ts';
import { hubFinishReasonToToy, hubUsageToToy, toyFinishReason, toyUsageToHub, type ToyAnswer } from './toy-chat-wire.ts';

export function toyResponseToHub(json: unknown): HubResponse {
  const answer = json as Partial<ToyAnswer> | null;
  if (!answer || typeof answer !== 'object' || typeof answer.reply !== 'string') throw upstreamPayloadError('toy-chat', 'an answer needs its reply');
  return {
    id: String(answer.id ?? ''),
    model: String(answer.model ?? ''),
    content: answer.reply === '' ? [] : [{ type: 'text', text: answer.reply }],
    finishReason: toyFinishReason(answer.stop),
    usage: toyUsageToHub(answer.usage),
  };
}

export function hubToToyResponse(response: HubResponse, ctx: HubToResponseContext): Record<string, unknown> {
  const answer: ToyAnswer = {
    id: response.id,
    model: ctx.requestModel,
    reply: response.content.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join(''),
    stop: hubFinishReasonToToy(response.finishReason),
    usage: hubUsageToToy(response.usage),
  };
  return answer as unknown as Record<string, unknown>;
}
