// The stream usage option a format declares is the only source of what the passthrough hop adds to a body.
import { describe, expect, it } from 'vitest';
import { getFormat } from '../../src/formats/index.ts';
import { streamUsageOptionOf } from '../../src/relay/hops/stream-usage-option.ts';

describe('streamUsageOptionOf', () => {
  it('serialises the declared fields once, as the bytes appended before a body’s closing brace', () => {
    const option = streamUsageOptionOf(getFormat('openai-chat'))!;
    expect(streamUsageOptionOf(getFormat('openai-chat'))).toBe(option);
    const body = Buffer.concat([Buffer.from('{"model":"m","stream":true'), option.appendBytes]);
    expect(JSON.parse(body.toString())).toEqual({ model: 'm', stream: true, ...getFormat('openai-chat').streamUsageOption });
  });

  it('reads a declaration it has never seen: nothing about OpenAI is written in the hop', () => {
    const option = streamUsageOptionOf({ streamUsageOption: { report: { tokens: 'yes' }, flag: 1 } })!;
    expect(option.askedBy({ report: { tokens: 'yes', other: 2 }, flag: 1 })).toBe(true);
    expect(option.askedBy({ report: { tokens: 'no' }, flag: 1 })).toBe(false);
    expect(option.absentFrom({ model: 'm' })).toBe(true);
    expect(option.absentFrom({ flag: 0 })).toBe(false);
    expect(option.mergeInto({ report: { other: 2 }, flag: 0, model: 'm' })).toEqual({ report: { other: 2, tokens: 'yes' }, flag: 1, model: 'm' });
    expect(JSON.parse(`{"a":1${option.appendBytes.toString()}`)).toEqual({ a: 1, report: { tokens: 'yes' }, flag: 1 });
  });

  it('keeps what the client set and overrides only what usage needs', () => {
    const option = streamUsageOptionOf(getFormat('openai-chat'))!;
    expect(option.askedBy({ stream_options: { include_usage: true } })).toBe(true);
    expect(option.askedBy({ stream_options: { include_usage: false } })).toBe(false);
    expect(option.askedBy({ stream_options: null })).toBe(false);
    expect(option.mergeInto({ stream_options: { include_obfuscation: false } })).toEqual({ stream_options: { include_obfuscation: false, include_usage: true } });
    expect(option.mergeInto({ stream_options: null })).toEqual({ stream_options: { include_usage: true } });
  });

  it('is null for a format whose streams always report usage', () => {
    expect(streamUsageOptionOf(getFormat('anthropic-messages'))).toBeNull();
  });
});
