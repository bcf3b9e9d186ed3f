// The relay's own SSE parsing (sse-line-parser.ts, with UTF-8 decoded per chunk in sse-pump.ts) must cut
// exactly the events eventsource-parser 3 with a streaming TextDecoder cut (what the pump used before),
// however the bytes are split into chunks: across lines, inside CRLF pairs, inside multi-byte characters.
import { describe, expect, it } from 'vitest';
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { createSsePump, wholeUtf8Length } from '../../src/relay/sse-pump.ts';
import type { StreamConverter } from '../../src/relay/relay-hop.ts';

function reference(chunks: Buffer[]): EventSourceMessage[] {
  const events: EventSourceMessage[] = [];
  const parser = createParser({ onEvent: (event) => events.push(event) });
  const decoder = new TextDecoder();
  for (const chunk of chunks) parser.feed(decoder.decode(chunk, { stream: true }));
  parser.feed(decoder.decode());
  return events;
}

async function pumped(chunks: Buffer[]): Promise<EventSourceMessage[]> {
  const events: EventSourceMessage[] = [];
  const converter = { event: (event: EventSourceMessage) => (events.push({ ...event }), '') } as unknown as StreamConverter;
  async function* source(): AsyncGenerator<Buffer> {
    yield* chunks;
  }
  const pump = createSsePump(source(), converter, () => {});
  for (;;) if ((await pump.next()).done) break;
  return events;
}

const bodies: Record<string, string> = {
  'OpenAI chunks': 'data: {"id":"a","choices":[{"delta":{"content":"héllo 😀"}}]}\n\ndata: {"id":"a","choices":[]}\n\ndata: [DONE]\n\n',
  'Anthropic named events': 'event: message_start\ndata: {"type":"message_start"}\n\nevent: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"日本語"}}\n\nevent: ping\ndata: {"type": "ping"}\n\n',
  'CRLF and CR line ends': 'event: a\r\ndata: one\r\n\r\ndata: two\rdata: three\r\r\nid: 7\r\ndata:four\r\n\r\n',
  'multi-line data, comments, ids, retry, unknown fields': ': comment\ndata: first\ndata: second\nid: 42\nretry: 100\nfoo: bar\nnovalue\n\ndata\n\nid: a\u0000b\ndata: x\n\nevent:\ndata:  two spaces\n\n',
  'a BOM, empty events, a trailing unended line': '\ufeffdata: a\n\n\n\nevent: only-event\n\ndata: b\n\ndata: unended',
  'an event name left over before a fast data line': 'event: named\ndata: fast\n\nevent: x\nid: 1\ndata: y\n\n',
};

/** Deterministic pseudo-random cut points, so a failure is reproducible. */
function splits(bytes: Buffer, seed: number): Buffer[] {
  const chunks: Buffer[] = [];
  let state = seed;
  let at = 0;
  while (at < bytes.length) {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    const size = 1 + (state % 7);
    chunks.push(bytes.subarray(at, at + size));
    at += size;
  }
  return chunks;
}

describe('the SSE pump cuts the events eventsource-parser cut', () => {
  for (const [name, text] of Object.entries(bodies)) {
    it(name, async () => {
      const bytes = Buffer.from(text, 'utf8');
      const whole = await pumped([bytes]);
      expect(whole).toEqual(reference([bytes]));
      expect(whole.length).toBeGreaterThan(0);
      for (let seed = 1; seed <= 40; seed++) {
        const chunks = splits(bytes, seed);
        expect(await pumped(chunks)).toEqual(reference(chunks));
      }
      // One byte at a time: every multi-byte character and CRLF pair is cut.
      const bytewise = [...bytes].map((byte) => Buffer.from([byte]));
      expect(await pumped(bytewise)).toEqual(reference(bytewise));
    });
  }

  it('decodes a character cut by the end of the body as U+FFFD, as TextDecoder did', async () => {
    const chunks = [Buffer.from('data: a\n\ndata: b'), Buffer.from([0xe6, 0x97]), Buffer.from('\n\n'), Buffer.from([0xe6])];
    expect(await pumped(chunks)).toEqual(reference(chunks));
  });
});

describe('wholeUtf8Length', () => {
  it('keeps back only an incomplete sequence at the end', () => {
    const snowman = Buffer.from('☃'); // 3 bytes
    const face = Buffer.from('😀'); // 4 bytes
    expect(wholeUtf8Length(Buffer.from('abc'))).toBe(3);
    expect(wholeUtf8Length(Buffer.concat([Buffer.from('a'), snowman.subarray(0, 2)]))).toBe(1);
    expect(wholeUtf8Length(Buffer.concat([Buffer.from('a'), snowman]))).toBe(4);
    expect(wholeUtf8Length(Buffer.concat([Buffer.from('a'), face.subarray(0, 3)]))).toBe(1);
    expect(wholeUtf8Length(Buffer.concat([Buffer.from('a'), face]))).toBe(5);
    expect(wholeUtf8Length(Buffer.from([0x80, 0x80, 0x80, 0x80]))).toBe(4); // not UTF-8: left to toString's U+FFFD
    expect(wholeUtf8Length(Buffer.alloc(0))).toBe(0);
  });
});
