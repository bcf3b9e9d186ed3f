// The text-delta fast lanes of translated streams (issue 16): an Anthropic text delta goes from the channel
// machine's textDeltaOf to the OpenAI machine's textDeltaSse without hub parts, and plain texts are quoted
// without JSON.stringify. Each must give exactly what the general path gives: the same bytes to the client,
// the same delivered text and usage, for every kind of text and every other event around them.
import { describe, expect, it } from 'vitest';
import pino from 'pino';
import { getFormat } from '../../src/formats/index.ts';
import type { FormatConverters } from '../../src/hub/hub-format.ts';
import { hubStreamConverter } from '../../src/relay/hops/hub-stream-converter.ts';
import { isPlainJsonText } from '../../src/formats/shared/json-string.ts';
import { createHubToOpenaiChatStreamMachine } from '../../src/formats/openai-chat/openai-chat-stream.ts';
import { formatSseEvent } from '../../src/relay/sse-pump.ts';
import { deliveredOutput } from '../../src/formats/shared/delivered-output.ts';
import { estimateTextTokens } from '../../src/metering/estimate-tokens.ts';
import { AttemptUsage } from '../../src/relay/attempt-usage.ts';
import type { RelayCall } from '../../src/relay/relay-types.ts';

/** Usage resolved as for an OpenAI chat call with an empty prompt (what the stream reports wins). */
const countingNothing = new AttemptUsage({ inboundFormat: 'openai-chat', body: { messages: [] } } as unknown as RelayCall, undefined);

/** Texts a model writes and the ones that need escapes: quotes, backslashes, controls, separators, surrogates. */
const texts = [
  'plain', ' ', 'Hello', 'a longer piece of text than thirteen characters', 'quotes " here', 'back\\slash', 'line\nbreak', 'tab\there',
  'nul \u0000', 'unit sep \u001f', 'del \u007f', 'ünïcödé 日本語', 'emoji 😀', 'line sep \u2028 para sep \u2029', '</script>', '}}"}}',
  'lone high \ud800', 'lone low \udc00 end', '\ud83d', '"', '\\', '\u2028',
];

describe('isPlainJsonText', () => {
  it('holds exactly when JSON.stringify is the text between quotes: every UTF-16 code unit, alone, inside text and next to either surrogate', () => {
    const check = (text: string) => expect(isPlainJsonText(text)).toBe(JSON.stringify(text) === `"${text}"`);
    for (let code = 0; code <= 0xffff; code++) {
      const char = String.fromCharCode(code);
      for (const text of [char, `a${char}b`, `\ud83d${char}`, `${char}\ude00`, `\ud83d${char}\ude00`]) check(text);
    }
    for (const text of [...texts, '']) check(text);
  });

  it('calls plain only what needs no escape', () => {
    expect(isPlainJsonText('Hello there ünï 😀 \u2028')).toBe(true);
    for (const text of ['"', '\\', '\n', '\u0000', '\ud800', '\udc00', '\ude00\ud83d', '\ud83d']) expect(isPlainJsonText(`x${text}y`)).toBe(false);
    expect(isPlainJsonText('x\ud83d')).toBe(false);
  });
});

describe('the OpenAI chat machine\'s textDeltaSse', () => {
  it('writes what push and the SSE framing write for a text delta, and nothing before start or after finish', () => {
    const lane = createHubToOpenaiChatStreamMachine({ requestModel: 'gpt "x"', created: 1_700_000_000, includeUsage: true });
    const general = createHubToOpenaiChatStreamMachine({ requestModel: 'gpt "x"', created: 1_700_000_000, includeUsage: true });
    expect(lane.textDeltaSse('early')).toBeUndefined();
    lane.push({ type: 'start', id: 'msg_1', model: 'claude' });
    general.push({ type: 'start', id: 'msg_1', model: 'claude' });
    let covered = 0;
    for (const text of texts) {
      const expected = general.push({ type: 'text-delta', delta: text }).map((event) => formatSseEvent(event.data, event.event)).join('');
      const written = lane.textDeltaSse(text);
      if (written === undefined) {
        expect(isPlainJsonText(text)).toBe(false);
        continue;
      }
      covered++;
      expect(written).toBe(expected);
    }
    expect(covered).toBe(texts.filter(isPlainJsonText).length);
    expect(covered).toBeGreaterThan(8);
    lane.push({ type: 'finish', finishReason: { unified: 'stop', raw: 'end_turn' }, usage: { inputTokens: 1, outputTokens: 2 } });
    expect(lane.textDeltaSse('late')).toBeUndefined();
  });
});

describe('a translated stream, Anthropic channel → OpenAI chat client', () => {
  const anthropic = getFormat('anthropic-messages');
  const openai = getFormat('openai-chat');
  /** The Anthropic format with its channel machine's lane hidden: every event goes through hub parts. */
  const withoutLane: FormatConverters = {
    ...anthropic,
    streamToHubMachine: (ctx) => {
      const machine = anthropic.streamToHubMachine(ctx);
      return { push: (event) => machine.push(event), end: () => machine.end() };
    },
  };
  const event = (type: string, body: object) => ({ event: type, data: JSON.stringify({ type, ...body }) });
  const events = [
    event('message_start', { message: { id: 'msg_01', type: 'message', role: 'assistant', model: 'claude', content: [], stop_reason: null, usage: { input_tokens: 12, output_tokens: 1 } } }),
    event('content_block_start', { index: 0, content_block: { type: 'thinking', thinking: '', signature: '' } }),
    event('content_block_delta', { index: 0, delta: { type: 'thinking_delta', thinking: 'hmm "x"' } }),
    event('content_block_delta', { index: 0, delta: { type: 'signature_delta', signature: 'sig' } }),
    event('content_block_stop', { index: 0 }),
    event('content_block_start', { index: 1, content_block: { type: 'text', text: '' } }),
    event('ping', {}),
    ...texts.map((text) => event('content_block_delta', { index: 1, delta: { type: 'text_delta', text } })),
    event('content_block_delta', { index: 1, delta: { type: 'text_delta', text: '' } }),
    // Not Anthropic's own key order, and with spaces: the general path reads them.
    { event: 'content_block_delta', data: '{"index":1,"type":"content_block_delta","delta":{"type":"text_delta","text":"reordered"}}' },
    { event: 'content_block_delta', data: '{"type": "content_block_delta", "index": 1, "delta": {"type": "text_delta", "text": "spaced"}}' },
    // A raw newline inside the literal is not JSON: dropped (with a warning) either way.
    { event: 'content_block_delta', data: '{"type":"content_block_delta","index":1,"delta":{"type":"text_delta","text":"raw \n newline"}}' },
    // Escapes written by hand, as another server may write them.
    { event: 'content_block_delta', data: '{"type":"content_block_delta","index":12,"delta":{"type":"text_delta","text":"\\u0041\\/\\ud83d\\ude00\\u2028"}}' },
    event('content_block_stop', { index: 1 }),
    event('content_block_start', { index: 2, content_block: { type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: {} } }),
    event('content_block_delta', { index: 2, delta: { type: 'input_json_delta', partial_json: '' } }),
    event('content_block_delta', { index: 2, delta: { type: 'input_json_delta', partial_json: '{"city": "Pa' } }),
    event('content_block_delta', { index: 2, delta: { type: 'input_json_delta', partial_json: 'ris \\"x\\""}' } }),
    event('content_block_stop', { index: 2 }),
    event('message_delta', { delta: { stop_reason: 'tool_use', stop_sequence: null }, usage: { input_tokens: 12, output_tokens: 40, cache_read_input_tokens: 3 } }),
    event('message_stop', {}),
  ];

  const run = (upstream: FormatConverters) => {
    const converter = hubStreamConverter({ upstream, client: openai, requestModel: 'gpt-4o "mini"', includeUsage: true, requestBody: { messages: [] }, usage: countingNothing, logger: pino({ level: 'silent' }) });
    const written = events.map((sse) => converter.event(sse));
    written.push(converter.end());
    return { written, usage: converter.usage(), delivered: converter.delivered() };
  };

  it('writes the same bytes with the lanes as through hub parts, event by event', () => {
    const viaLane = run(anthropic);
    const viaParts = run(withoutLane);
    // `created` is the clock's: equal unless the second turned between the two runs.
    const created = (written: string[]) => /"created":(\d+)/.exec(written.join(''))?.[1];
    const fixed = (written: string[]) => written.map((text) => text.replaceAll(`"created":${created(written)}`, '"created":0'));
    expect(fixed(viaLane.written)).toEqual(fixed(viaParts.written));
    expect(viaLane.usage).toEqual(viaParts.usage);
    expect(viaLane.delivered).toEqual(viaParts.delivered);
    expect(viaLane.delivered.text).toBe(`${texts.join('')}reorderedspacedA/😀\u2028`);
    // Every chunk is what JSON.stringify of the chunk gives (the official SDK reads it like any other).
    const chunks = viaLane.written.join('').split('\n\n').filter(Boolean).map((line) => line.replace(/^data: /, ''));
    expect(chunks.at(-1)).toBe('[DONE]');
    for (const chunk of chunks.slice(0, -1)) expect(chunk).toBe(JSON.stringify(JSON.parse(chunk)));
  });

  it('takes the lane for plain text deltas (the comparison above covers both paths)', () => {
    const reader = anthropic.streamToHubMachine({});
    expect(reader.push(events[0]!)).toHaveLength(1);
    const textDeltaOf = (reader as { textDeltaOf?: (sse: { data: string }) => string | undefined }).textDeltaOf;
    expect(textDeltaOf?.(events[7]!)).toBe(texts[0]);
    expect(textDeltaOf?.(events[1]!)).toBeUndefined();
  });
});

describe('deliveredOutput', () => {
  it('keeps every piece in order, across its groups and when read midway', () => {
    const output = deliveredOutput();
    let text = '';
    let other = '';
    for (let i = 0; i < 100; i++) {
      const piece = `${i} ${texts[i % texts.length]} `;
      if (i % 3 === 0) output.observe({ type: 'text-delta', delta: piece });
      else output.observeText(piece);
      text += piece;
      if (i % 10 === 0) {
        output.observe({ type: 'reasoning-delta', delta: `r${i}` });
        other += `r${i}`;
      }
      if (i === 33 || i === 64) expect(output.text).toBe(text);
    }
    output.observe({ type: 'tool-call-start', index: 0, id: 'call_1', name: 'get_weather' });
    output.observe({ type: 'tool-call-delta', index: 0, argumentsDelta: '{"city":"Paris"}' });
    other += 'get_weather{"city":"Paris"}';
    expect(output.text).toBe(text);
    expect(output.toolCalls).toBe(true);
    expect(output.tokens()).toBe(estimateTextTokens(text + other));
  });
});
