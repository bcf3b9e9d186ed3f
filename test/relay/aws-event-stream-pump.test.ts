// The relay's decoder for AWS event streams: whole messages cut out of chunks of any size (one byte at a
// time here), each checked by the codec's CRCs; a corrupt message skipped, an impossible length refused,
// exceptions and protocol errors named so the format's converter can read them.
import { EventStreamCodec } from '@smithy/eventstream-codec';
import { fromUtf8, toUtf8 } from '@smithy/util-utf8';
import { describe, expect, it } from 'vitest';
import { createAwsEventStreamPump, EventStreamFramingError } from '../../src/relay/aws-event-stream-pump.ts';
import type { StreamConverter } from '../../src/relay/relay-hop.ts';

const codec = new EventStreamCodec(toUtf8, fromUtf8);
const message = (headers: Record<string, string>, payload: string) => codec.encode({
  headers: Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, { type: 'string' as const, value }])),
  body: fromUtf8(payload),
});
const event = (type: string, payload: object) => message({ ':message-type': 'event', ':event-type': type, ':content-type': 'application/json' }, JSON.stringify(payload));

/** A converter that writes each event it is given as `name=data;`. */
function recorder(): StreamConverter {
  return {
    event: (e) => `${e.event}=${e.data};`,
    end: () => '', failure: () => '', usage: () => ({ inputTokens: 0, outputTokens: 0 }) as never, delivered: () => ({ text: '', toolCalls: false }),
  };
}

async function* chunksOf(bytes: Uint8Array, size: number): AsyncGenerator<Buffer> {
  for (let i = 0; i < bytes.length; i += size) yield Buffer.from(bytes.subarray(i, i + size));
}

async function drain(bytes: Uint8Array, size: number, malformed: Error[] = []): Promise<string> {
  const pump = createAwsEventStreamPump(chunksOf(bytes, size), recorder(), (error) => malformed.push(error));
  let out = '';
  for (;;) {
    const step = await pump.next();
    out += step.text;
    if (step.done) return out;
  }
}

const concat = (...parts: Uint8Array[]) => Buffer.concat(parts.map((part) => Buffer.from(part)));

describe('AWS event-stream pump', () => {
  const stream = concat(event('messageStart', { role: 'assistant' }), event('contentBlockDelta', { delta: { text: 'hé' } }), event('metadata', { usage: { inputTokens: 1 } }));
  const expected = 'messageStart={"role":"assistant"};contentBlockDelta={"delta":{"text":"hé"}};metadata={"usage":{"inputTokens":1}};';

  it.each([1, 7, 64, 100_000])('decodes the same events whatever the chunk size (%i bytes)', async (size) => {
    expect(await drain(stream, size)).toBe(expected);
  });

  it('names exception messages by their :exception-type and protocol errors by their :error-code', async () => {
    const bytes = concat(
      message({ ':message-type': 'exception', ':exception-type': 'throttlingException', ':content-type': 'application/json' }, '{"message":"slow down"}'),
      message({ ':message-type': 'error', ':error-code': 'InternalFailure', ':error-message': 'oops' }, ''),
    );
    expect(await drain(bytes, 5)).toBe('throttlingException={"message":"slow down"};internalFailure={"message":"oops"};');
  });

  it('skips a message whose CRC does not match, reporting it, and goes on', async () => {
    const broken = Buffer.from(event('contentBlockDelta', { delta: { text: 'lost' } }));
    broken[broken.length - 6] = broken[broken.length - 6]! ^ 0xff; // a payload byte: the message CRC no longer matches
    const malformed: Error[] = [];
    expect(await drain(concat(event('messageStart', {}), broken, event('messageStop', {})), 9, malformed)).toBe('messageStart={};messageStop={};');
    expect(malformed).toHaveLength(1);
  });

  it('refuses a prelude declaring more than 16 MB instead of buffering it, and reports a stream cut inside a message', async () => {
    const huge = Buffer.alloc(8);
    huge.writeUInt32BE(64 * 1024 * 1024, 0);
    await expect(drain(huge, 8)).rejects.toBeInstanceOf(EventStreamFramingError);
    const malformed: Error[] = [];
    expect(await drain(stream.subarray(0, stream.length - 3), 11, malformed)).toBe('messageStart={"role":"assistant"};contentBlockDelta={"delta":{"text":"hé"}};');
    expect(malformed.map((error) => error.message)).toEqual([expect.stringContaining('ended inside a message')]);
  });
});
