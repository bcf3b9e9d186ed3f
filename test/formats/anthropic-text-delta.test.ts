// Anthropic text deltas are read without JSON.parse when they are in Anthropic's fixed form
// (anthropic-messages-text-delta.ts). The fast reading must give the text JSON.parse gives, take only events
// that are exactly a text delta, and leave every other form to the general path.
import { describe, expect, it } from 'vitest';
import { anthropicTextDeltaOf } from '../../src/formats/anthropic-messages/anthropic-messages-text-delta.ts';
import { createAnthropicMessagesStreamToHubMachine } from '../../src/formats/anthropic-messages/anthropic-messages-stream.ts';

const texts = ['plain', '', ' ', 'quotes " and \\ backslash', 'line\nbreak\ttab', 'nul \u0000 and \u001f', 'ünïcödé 日本語 😀', '\u2028\u2029', '}}"}}', 'a"}}'];

describe('anthropicTextDeltaOf', () => {
  it('reads the text of every text delta in the form Anthropic writes', () => {
    for (const text of texts) {
      for (const index of [0, 7, 123456]) {
        const data = JSON.stringify({ type: 'content_block_delta', index, delta: { type: 'text_delta', text } });
        expect(anthropicTextDeltaOf(data)).toBe(text);
      }
    }
  });

  it('leaves anything else to the general path', () => {
    const others = [
      JSON.stringify({ type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking: 'x' } }),
      JSON.stringify({ type: 'content_block_delta', delta: { type: 'text_delta', text: 'x' }, index: 0 }),
      JSON.stringify({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'x', extra: 1 } }),
      JSON.stringify({ type: 'content_block_delta', index: -1, delta: { type: 'text_delta', text: 'x' } }),
      JSON.stringify({ type: 'content_block_delta', index: 0.5, delta: { type: 'text_delta', text: 'x' } }),
      '{"type":"content_block_delta","index":01,"delta":{"type":"text_delta","text":"x"}}',
      '{"type":"content_block_delta","index":,"delta":{"type":"text_delta","text":"x"}}',
      '{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"a"b"}}',
      '{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"a\\"}}',
      '{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"bad \\x escape"}}',
      '{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"raw \n newline"}}',
      '{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"}}',
      '{"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": "spaced"}}',
      '{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"x"}} ',
    ];
    for (const data of others) expect(anthropicTextDeltaOf(data)).toBeUndefined();
  });

  it('gives the machine the parts the general path gives, and drops what it drops', () => {
    const events = [
      ...texts.map((text) => ({ event: 'content_block_delta', data: JSON.stringify({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text } }) })),
      { event: 'content_block_delta', data: '{"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": "spaced"}}' },
      { event: 'content_block_delta', data: '{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"raw \n newline"}}' },
    ];
    const warnings: string[] = [];
    const machine = createAnthropicMessagesStreamToHubMachine({ onWarning: (warning) => warnings.push(warning.detail) });
    const parts = events.flatMap((event) => machine.push(event));
    expect(parts).toEqual([...texts.filter((text) => text !== ''), 'spaced'].map((delta) => ({ type: 'text-delta', delta })));
    expect(warnings).toHaveLength(1); // the raw newline is not JSON: dropped with a warning, as before
  });
});
