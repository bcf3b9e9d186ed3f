import { describe, expect, it } from 'vitest';
import { applyStreamEvent, emptyStreamState, readChatStream } from './chat-stream.ts';

const chunk = (content: string | null, finish: string | null = null) =>
  `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', choices: [{ index: 0, delta: content === null ? {} : { content }, finish_reason: finish }] })}\n\n`;

function streamOf(parts: string[], { failAfter }: { failAfter?: number } = {}): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let index = 0;
  return new ReadableStream({
    pull(controller) {
      if (failAfter !== undefined && index === failAfter) {
        controller.error(new Error('socket hang up'));
        return;
      }
      if (index >= parts.length) {
        controller.close();
        return;
      }
      controller.enqueue(encoder.encode(parts[index]!));
      index += 1;
    },
  });
}

describe('the playground stream reader', () => {
  it('grows the text event by event, even when an event is split across network chunks', async () => {
    const usage = { prompt_tokens: 5, completion_tokens: 3, total_tokens: 8 };
    const whole = chunk('Hel') + chunk('lo') + chunk(null, 'stop') + `data: ${JSON.stringify({ choices: [], usage })}\n\n` + 'data: [DONE]\n\n';
    const parts = [whole.slice(0, 17), whole.slice(17, 90), whole.slice(90)];
    const seen: string[] = [];
    const final = await readChatStream(streamOf(parts), (state) => seen.push(state.text));
    expect(final.text).toBe('Hello');
    expect(final.finishReason).toBe('stop');
    expect(final.usage).toEqual(usage);
    expect(final.done).toBe(true);
    expect(seen).toContain('Hel');
  });

  it('keeps what arrived when the connection breaks, and says so', async () => {
    const final = await readChatStream(streamOf([chunk('partial '), chunk('answer')], { failAfter: 2 }), () => {});
    expect(final.text).toBe('partial answer');
    expect(final.error).toBe('socket hang up');
  });

  it('shows an error event from the gateway and ignores lines that are not JSON', () => {
    let state = applyStreamEvent(emptyStreamState(), 'not json');
    expect(state).toEqual(emptyStreamState());
    state = applyStreamEvent(state, JSON.stringify({ error: { message: 'upstream overloaded' } }));
    expect(state.error).toBe('upstream overloaded');
    expect(state.done).toBe(true);
  });
});
