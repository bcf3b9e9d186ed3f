// toy-chat streams ⇄ hub stream parts, as two synchronous machines (push(event) / end()).
import { defaultGenerateId, parseEventJson, type HubStreamPart, type HubToStreamContext, type SseEvent, type StreamMachine, type StreamToHubContext } from '../../../src/hub/hub-stream.ts';
import { hubFinishReasonToToy, hubUsageToToy, toyFinishReason, toyUsageToHub, type ToyEvent } from './toy-chat-wire.ts';
import { toyTroubleToHub } from './toy-chat-error.ts';

export function toyStreamToHubMachine(ctx: StreamToHubContext = {}): StreamMachine<SseEvent, HubStreamPart> {
  let started = false;
  const start = (id: string, model: string): HubStreamPart[] => {
    if (started) return [];
    started = true;
    return [{ type: 'start', id, model }];
  };
  return {
    push(event) {
      const data = parseEventJson(event, ctx.onWarning) as Partial<Record<string, unknown>> | undefined;
      if (!data || typeof data !== 'object') return [];
      if (typeof data.begin === 'object' && data.begin !== null) {
        const begin = data.begin as { id?: unknown; model?: unknown };
        return start(String(begin.id ?? defaultGenerateId('toy')), String(begin.model ?? ''));
      }
      const opening = start(defaultGenerateId('toy'), '');
      if (typeof data.piece === 'string') return data.piece === '' ? opening : [...opening, { type: 'text-delta', delta: data.piece }];
      if (data.trouble !== undefined) return [...opening, { type: 'error', error: toyTroubleToHub(500, data) }];
      if (data.stop !== undefined) return [...opening, { type: 'finish', finishReason: toyFinishReason(data.stop), usage: toyUsageToHub(data.usage) }];
      return opening;
    },
    end: () => [],
  };
}

export function hubToToyStreamMachine(ctx: HubToStreamContext): StreamMachine<HubStreamPart, SseEvent> {
  const event = (data: ToyEvent): SseEvent => ({ data: JSON.stringify(data) });
  return {
    push(part) {
      switch (part.type) {
        case 'start': return [event({ begin: { id: part.id, model: ctx.requestModel } })];
        case 'text-delta': return [event({ piece: part.delta })];
        case 'finish': return [event({ stop: hubFinishReasonToToy(part.finishReason), usage: hubUsageToToy(part.usage) })];
        case 'error': return [event({ trouble: { kind: 'broken', says: part.error.message } })];
        default: return [];
      }
    },
    end: () => [],
  };
}
