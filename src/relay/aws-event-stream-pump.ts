// Pulls an upstream AWS event stream (application/vnd.amazon.eventstream: Bedrock's ConverseStream) the way
// sse-pump.ts pulls SSE: one next() reads one upstream chunk and returns the client text it produced. Each
// binary message (a 4-byte total length, headers, payload, CRCs) is cut out of the chunks here and decoded
// and checked by @smithy's EventStreamCodec; the converter sees it as an SseEvent named by its
// `:event-type` (or `:exception-type`), whose data is the JSON payload, so format converters stay text-only.
import { createRequire } from 'node:module';
import type { Message } from '@smithy/eventstream-codec';
import { MalformedEventError, type StreamConverter } from './relay-hop.ts';
import type { SsePump } from './sse-pump.ts';

// The codec (~14 MB resident with its dependencies) is loaded by the first Bedrock stream, not at start:
// most deployments never have one. It is CommonJS, so a synchronous require keeps the pump synchronous.
const requireModule = createRequire(import.meta.url);
let codecClass: typeof import('@smithy/eventstream-codec').EventStreamCodec | undefined;
const eventStreamCodecClass = () => (codecClass ??= (requireModule('@smithy/eventstream-codec') as typeof import('@smithy/eventstream-codec')).EventStreamCodec);

const toUtf8 = (bytes: Uint8Array): string => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
const fromUtf8 = (text: string): Uint8Array => new Uint8Array(Buffer.from(text, 'utf8'));

/** AWS caps an event-stream message at 16 MB; a longer prelude is a broken or hostile stream, not buffered. */
const MAX_MESSAGE_BYTES = 16 * 1024 * 1024;

export class EventStreamFramingError extends Error {}

/** Cuts whole messages out of arbitrary chunks; holds at most one partial message. */
function createEventStreamSplitter(): { push(chunk: Uint8Array): Uint8Array[]; pending(): number } {
  let buffer: Buffer = Buffer.alloc(0);
  return {
    push(chunk) {
      buffer = buffer.length === 0 ? Buffer.from(chunk) : Buffer.concat([buffer, chunk]);
      const messages: Uint8Array[] = [];
      while (buffer.length >= 4) {
        const length = buffer.readUInt32BE(0);
        if (length < 16 || length > MAX_MESSAGE_BYTES) throw new EventStreamFramingError(`an event-stream message declares ${length} bytes`);
        if (buffer.length < length) break;
        messages.push(buffer.subarray(0, length));
        buffer = buffer.subarray(length);
      }
      return messages;
    },
    pending: () => buffer.length,
  };
}

const headerText = (message: Message, name: string): string | undefined => {
  const header = message.headers[name];
  return header && header.type === 'string' ? header.value : undefined;
};

/** One decoded message as the event a converter reads; undefined for a message with no name. */
function eventStreamMessageToEvent(message: Message): { event: string; data: string } | undefined {
  const kind = headerText(message, ':message-type') ?? 'event';
  if (kind === 'error') {
    // A protocol-level error: its code and message are headers, not a payload.
    const code = headerText(message, ':error-code') ?? 'InternalServerException';
    return { event: code.charAt(0).toLowerCase() + code.slice(1), data: JSON.stringify({ message: headerText(message, ':error-message') ?? code }) };
  }
  const name = kind === 'exception' ? headerText(message, ':exception-type') : headerText(message, ':event-type');
  if (!name) return undefined;
  return { event: name, data: toUtf8(message.body) || '{}' };
}

export function createAwsEventStreamPump(chunks: AsyncIterable<Buffer>, converter: StreamConverter, onMalformed: (error: Error) => void): SsePump {
  const iterator = chunks[Symbol.asyncIterator]();
  const codec = new (eventStreamCodecClass())(toUtf8, fromUtf8);
  const splitter = createEventStreamSplitter();
  const convert = (bytes: Uint8Array): string => {
    // A message whose CRC does not match cannot be trusted, but the framing still holds: skip it.
    let message: Message;
    try {
      message = codec.decode(bytes);
    } catch (error) {
      onMalformed(error as Error);
      return '';
    }
    const event = eventStreamMessageToEvent(message);
    if (!event) return '';
    try {
      return converter.event(event);
    } catch (error) {
      if (error instanceof MalformedEventError) {
        onMalformed(error);
        return '';
      }
      throw error;
    }
  };
  return {
    async next() {
      const step = await iterator.next();
      if (step.done) {
        if (splitter.pending() > 0) onMalformed(new EventStreamFramingError(`the stream ended inside a message (${splitter.pending()} bytes left)`));
        return { text: '', done: true };
      }
      let text = '';
      for (const bytes of splitter.push(step.value)) text += convert(bytes);
      return { text, done: false };
    },
    async stop() {
      await iterator.return?.();
    },
  };
}
