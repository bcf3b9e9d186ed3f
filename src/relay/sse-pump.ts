// Pulls an upstream SSE body chunk by chunk, parses events, and converts each as it arrives: one call to
// next() reads one upstream chunk and returns the client text it produced (every event of the chunk in one
// string, so the client gets one write per upstream chunk). Nothing is held back.
//
// One object per open stream: the parser is this class's own (eventsource-parser's rules, see
// sse-line-parser.ts) and UTF-8 is decoded per chunk with a carried partial character instead of a
// TextDecoder, so an idle stream keeps no parser closures and no decoder state (issue 16: memory per
// open stream).
import type { EventSourceMessage } from 'eventsource-parser';
import { MalformedEventError, type StreamConverter } from './relay-hop.ts';
import { SseLineParser } from './sse-line-parser.ts';

export interface SsePump {
  /** Client text produced by the next upstream chunk; done when the upstream body ended. */
  next(): Promise<{ text: string; done: boolean }>;
  /** Stops reading; the upstream request is aborted. */
  stop(): Promise<void>;
}

export function createSsePump(chunks: AsyncIterable<Buffer>, converter: StreamConverter, onMalformed: (error: Error) => void): SsePump {
  return new SseConvertingPump(chunks[Symbol.asyncIterator](), converter, onMalformed);
}

class SseConvertingPump extends SseLineParser implements SsePump {
  private readonly iterator: AsyncIterator<Buffer>;
  private readonly converter: StreamConverter;
  private readonly onMalformed: (error: Error) => void;
  /** The bytes of a UTF-8 character cut by the end of the last chunk. */
  private partial: Buffer | null = null;
  private out = '';

  constructor(iterator: AsyncIterator<Buffer>, converter: StreamConverter, onMalformed: (error: Error) => void) {
    super();
    this.iterator = iterator;
    this.converter = converter;
    this.onMalformed = onMalformed;
  }

  /** Not async: a `then` with one handler made per pump, where an await would make two closures per read. */
  next(): Promise<{ text: string; done: boolean }> {
    return this.iterator.next().then(this.convert);
  }

  private readonly convert = (step: IteratorResult<Buffer>): { text: string; done: boolean } => {
    if (step.done) {
      // A character cut by the end of the body decodes as U+FFFD, as TextDecoder's final decode() did.
      if (this.partial !== null) this.feed(this.partial.toString('utf8'));
      this.partial = null;
    } else {
      this.feed(this.decode(step.value));
    }
    const text = this.out;
    this.out = '';
    return { text, done: step.done === true };
  };

  async stop(): Promise<void> {
    await this.iterator.return?.();
  }

  protected onEvent(event: EventSourceMessage): void {
    try {
      this.out += this.converter.event(event);
    } catch (error) {
      // A broken event is skipped and logged; the rest of the stream goes on.
      if (error instanceof MalformedEventError) this.onMalformed(error);
      else throw error;
    }
  }

  /** The chunk's text up to its last whole UTF-8 character; the cut character's bytes wait for the next chunk. */
  private decode(chunk: Buffer): string {
    const bytes = this.partial === null ? chunk : Buffer.concat([this.partial, chunk]);
    const whole = wholeUtf8Length(bytes);
    this.partial = whole === bytes.length ? null : Buffer.from(bytes.subarray(whole));
    return bytes.toString('utf8', 0, whole);
  }
}

/** How many leading bytes hold whole UTF-8 characters: all but an incomplete sequence at the very end. */
export function wholeUtf8Length(bytes: Buffer): number {
  const last = bytes.length - 1;
  // A character is at most 4 bytes: look back over at most 3 continuation bytes for its lead byte.
  for (let back = 0; back < 4 && last - back >= 0; back++) {
    const byte = bytes[last - back]!;
    if ((byte & 0xc0) === 0x80) continue;
    const size = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
    // Invalid lead bytes (0xf8 and up) count as whole: toString writes U+FFFD for them, as TextDecoder does.
    return size > back + 1 && byte < 0xf8 ? last - back : bytes.length;
  }
  return bytes.length;
}

export { formatSseEvent } from '../formats/shared/sse-text.ts';
