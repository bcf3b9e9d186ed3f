// The Responses format as the client sees it when the gateway keeps the answer: the same converters, with
// three differences. The response id is one the gateway mints (the upstream's message id need not be unique
// across users or restarts, and every item id is derived from it); `store` and `previous_response_id` say
// what the gateway did; and the finished Response object, whole or from the stream's final event, is
// handed to `onFinished` to be saved. What is saved is always whole (reasoning items keep their
// encrypted_content, the thinking signature the next turn needs); the client sees encrypted_content only
// when its `include` asks for it, as on OpenAI.
import { randomBytes } from 'node:crypto';
import { askingForEncryptedReasoning, responseWithoutEncryptedReasoning, wantsEncryptedReasoning, withoutEncryptedReasoning } from '../formats/openai-responses/openai-responses-include.ts';
import type { FormatConverters } from '../hub/hub-format.ts';
import type { HubStreamPart, HubToStreamContext, SseEvent, StreamMachine } from '../hub/hub-stream.ts';

interface KeepingOptions {
  previousResponseId: string | null;
  onFinished(response: Record<string, unknown>): void;
}

/** Events whose `response` is the whole envelope; the last three end the stream. */
const ENVELOPE_EVENTS = new Set(['response.created', 'response.in_progress', 'response.queued', 'response.completed', 'response.incomplete', 'response.failed']);
const FINAL_EVENTS = new Set(['response.completed', 'response.incomplete']);

export const mintResponseId = () => `resp_${randomBytes(24).toString('hex')}`;

export function keepingClient(format: FormatConverters, id: string, options: KeepingOptions): FormatConverters {
  const stamp = (response: Record<string, unknown>) => {
    response.store = true;
    response.previous_response_id = options.previousResponseId;
    return response;
  };
  const streamMachine = (ctx: HubToStreamContext): StreamMachine<HubStreamPart, SseEvent> => {
    const sealed = wantsEncryptedReasoning(ctx.requestBody);
    const inner = format.hubToStreamMachine({ ...ctx, requestBody: askingForEncryptedReasoning(ctx.requestBody) });
    const watch = (events: SseEvent[]): SseEvent[] => events.map((event) => {
      if (!sealed && event.data.includes('"encrypted_content"') && event.event?.startsWith('response.output_item.')) {
        const parsed = JSON.parse(event.data) as { item?: unknown };
        return { ...event, data: JSON.stringify({ ...parsed, item: withoutEncryptedReasoning(parsed.item) }) };
      }
      if (!event.event || !ENVELOPE_EVENTS.has(event.event)) return event;
      const parsed = JSON.parse(event.data) as { response?: Record<string, unknown> };
      if (!parsed.response) return event;
      stamp(parsed.response);
      if (FINAL_EVENTS.has(event.event)) options.onFinished(parsed.response);
      return { ...event, data: JSON.stringify(sealed ? parsed : { ...parsed, response: responseWithoutEncryptedReasoning(parsed.response) }) };
    });
    return {
      push: (part) => watch(inner.push(part.type === 'start' ? { ...part, id } : part)),
      end: () => watch(inner.end()),
    };
  };
  return {
    ...format,
    hubToResponse(response, ctx) {
      const json = stamp(format.hubToResponse({ ...response, id }, { ...ctx, requestBody: askingForEncryptedReasoning(ctx.requestBody) }));
      options.onFinished(json);
      return wantsEncryptedReasoning(ctx.requestBody) ? json : responseWithoutEncryptedReasoning(json);
    },
    hubToStreamMachine: streamMachine,
    hubToStream(ctx) {
      // The relay writes streams through the machine above; this keeps the id for any other user.
      const machine = streamMachine(ctx);
      return new TransformStream<HubStreamPart, SseEvent>({
        transform: (part, controller) => machine.push(part).forEach((event) => controller.enqueue(event)),
        flush: (controller) => machine.end().forEach((event) => controller.enqueue(event)),
      });
    },
  };
}
