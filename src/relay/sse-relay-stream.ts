// Re-emits an upstream SSE body event by event as it arrives, letting a caller observe, drop or rewrite
// each event. One write per upstream chunk: nothing is held back waiting for more.
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { Readable } from 'node:stream';

export interface SseRelayHooks {
  /** Returns the SSE text to send for an event ('' to drop it). */
  onEvent(event: EventSourceMessage): string;
  /** Upstream finished cleanly; returns text to append (a missing terminator, say). */
  onEnd(): string;
  /** Upstream failed mid-stream; returns text to append (an error event in the client's format). */
  onError(error: unknown): string;
  /** Always called once, after the last byte or when the client went away. */
  onClose(clientGone: boolean): void;
}

export function relaySseStream(upstream: AsyncIterable<Buffer>, hooks: SseRelayHooks, signal: AbortSignal): Readable {
  async function* events(): AsyncGenerator<string> {
    const decoder = new TextDecoder();
    let pending = '';
    const parser = createParser({
      onEvent(event) {
        pending += hooks.onEvent(event);
      },
    });
    let finishedNormally = false;
    // Leaving this loop early (the client went away) ends the upstream iteration, which aborts the request.
    try {
      try {
        for await (const chunk of upstream) {
          parser.feed(decoder.decode(chunk, { stream: true }));
          if (pending) {
            const out = pending;
            pending = '';
            yield out;
          }
        }
        parser.feed(decoder.decode());
        pending += hooks.onEnd();
      } catch (error) {
        if (signal.aborted) return;
        pending += hooks.onError(error);
      }
      if (pending) yield pending;
      finishedNormally = true;
    } finally {
      hooks.onClose(!finishedNormally);
    }
  }
  return Readable.from(events(), { objectMode: false });
}

export function formatSseEvent(data: string, event?: string): string {
  return event ? `event: ${event}\ndata: ${data}\n\n` : `data: ${data}\n\n`;
}
