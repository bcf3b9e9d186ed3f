// Test helpers: recorded SSE fixtures parsed into events the way the relay parses upstream bytes, and a
// runner that pushes events through a TransformStream one at a time.
import { readFileSync } from 'node:fs';
import { createParser } from 'eventsource-parser';
import type { SseEvent } from '../../src/hub/hub-stream.ts';

export function parseSse(text: string): SseEvent[] {
  const events: SseEvent[] = [];
  const parser = createParser({
    onEvent(event) {
      events.push(event.event ? { event: event.event, data: event.data } : { data: event.data });
    },
  });
  parser.feed(text);
  return events;
}

export function readSseFixture(url: URL): SseEvent[] {
  return parseSse(readFileSync(url, 'utf8'));
}

export function readJsonFixture(url: URL): unknown {
  return JSON.parse(readFileSync(url, 'utf8')) as unknown;
}

export async function runStream<I, O>(stream: TransformStream<I, O>, inputs: readonly I[]): Promise<O[]> {
  const outputs: O[] = [];
  const reading = (async () => {
    const reader = stream.readable.getReader();
    for (;;) {
      const step = await reader.read();
      if (step.done) return;
      outputs.push(step.value);
    }
  })();
  const writer = stream.writable.getWriter();
  for (const input of inputs) await writer.write(input);
  await writer.close();
  await reading;
  return outputs;
}

/** Serialises events back to SSE text, as the relay does, for comparing against the wire. */
export function serialiseSse(events: readonly SseEvent[]): string {
  return events.map((e) => (e.event ? `event: ${e.event}\ndata: ${e.data}\n\n` : `data: ${e.data}\n\n`)).join('');
}

export const eventNames = (events: readonly SseEvent[]) => events.map((e) => e.event ?? (e.data === '[DONE]' ? '[DONE]' : 'data'));
export const eventJson = (events: readonly SseEvent[]) => events.map((e) => (e.data === '[DONE]' ? '[DONE]' : (JSON.parse(e.data) as Record<string, any>)));
