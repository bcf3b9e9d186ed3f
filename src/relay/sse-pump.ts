// Pulls an upstream SSE body chunk by chunk, parses events, and converts each as it arrives: one call to
// next() reads one upstream chunk and returns the client text it produced. Nothing is held back.
import { createParser } from 'eventsource-parser';
import { MalformedEventError, type StreamConverter } from './relay-hop.ts';

export interface SsePump {
  /** Client text produced by the next upstream chunk; done when the upstream body ended. */
  next(): Promise<{ text: string; done: boolean }>;
  /** Stops reading; the upstream request is aborted. */
  stop(): Promise<void>;
}

export function createSsePump(chunks: AsyncIterable<Buffer>, converter: StreamConverter, onMalformed: (error: Error) => void): SsePump {
  const iterator = chunks[Symbol.asyncIterator]();
  const decoder = new TextDecoder();
  let out = '';
  const parser = createParser({
    onEvent(event) {
      try {
        out += converter.event(event);
      } catch (error) {
        // A broken event is skipped and logged; the rest of the stream goes on.
        if (error instanceof MalformedEventError) onMalformed(error);
        else throw error;
      }
    },
  });
  return {
    async next() {
      const step = await iterator.next();
      if (step.done) parser.feed(decoder.decode());
      else parser.feed(decoder.decode(step.value, { stream: true }));
      const text = out;
      out = '';
      return { text, done: step.done === true };
    },
    async stop() {
      await iterator.return?.();
    },
  };
}

export function formatSseEvent(data: string, event?: string): string {
  return event ? `event: ${event}\ndata: ${data}\n\n` : `data: ${data}\n\n`;
}
