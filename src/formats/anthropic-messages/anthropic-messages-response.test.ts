import { describe, expect, it } from 'vitest';
import { readJsonFixture } from '../../../test/formats/sse-fixtures.ts';
import { anthropicMessagesResponseToHub, hubToAnthropicMessagesResponse } from './anthropic-messages-response.ts';

const fixture = (name: string) => readJsonFixture(new URL(`./__fixtures__/${name}`, import.meta.url));

describe('anthropic messages responses', () => {
  it('reads thinking, text, stop_sequence and usage with cache reads and writes added to the input', () => {
    expect(anthropicMessagesResponseToHub(fixture('anthropic-response-thinking.json'))).toEqual({
      id: 'msg_01XFDUDYJgAACzvnptvVoYEL',
      model: 'claude-sonnet-4-5-20250929',
      content: [
        { type: 'reasoning', text: 'Short answer.', signature: 'EqQBsig', signatureFamily: 'anthropic' },
        { type: 'text', text: 'Paris is 18C.' },
      ],
      finishReason: { unified: 'stop', raw: 'stop_sequence' },
      usage: { inputTokens: 5312, cachedInputTokens: 5000, cacheWriteTokens: 300, outputTokens: 60, reasoningTokens: 20 },
    });
  });

  it('writes a message back with input_tokens excluding cached tokens and the raw stop reason kept', () => {
    const hub = anthropicMessagesResponseToHub(fixture('anthropic-response-thinking.json'));
    expect(hubToAnthropicMessagesResponse(hub, { requestModel: 'alias' })).toEqual({
      id: 'msg_01XFDUDYJgAACzvnptvVoYEL',
      type: 'message',
      role: 'assistant',
      model: 'alias',
      content: [
        { type: 'thinking', thinking: 'Short answer.', signature: 'EqQBsig' },
        { type: 'text', text: 'Paris is 18C.' },
      ],
      stop_reason: 'stop_sequence',
      stop_sequence: null,
      usage: { input_tokens: 12, output_tokens: 60, cache_creation_input_tokens: 300, cache_read_input_tokens: 5000 },
    });
  });

  it('writes OpenAI tool calls as tool_use blocks with parsed input', () => {
    const out = hubToAnthropicMessagesResponse(
      {
        id: 'chatcmpl-1',
        model: 'gpt',
        content: [{ type: 'tool-call', id: 'call_1', name: 'f', argumentsJson: '{"a":1}' }],
        finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
        usage: { inputTokens: 10, cachedInputTokens: 4, cacheWriteTokens: 0, outputTokens: 3, reasoningTokens: 0 },
      },
      { requestModel: 'm' },
    );
    expect(out).toMatchObject({
      id: 'msg_chatcmpl-1',
      content: [{ type: 'tool_use', id: 'call_1', name: 'f', input: { a: 1 } }],
      stop_reason: 'tool_use',
      usage: { input_tokens: 6, cache_read_input_tokens: 4 },
    });
  });

  it('maps refusal to content-filter and unknown reasons to other', () => {
    const make = (stop_reason: string) => ({ id: 'm', type: 'message', role: 'assistant', model: 'c', content: [], stop_reason, usage: { input_tokens: 1, output_tokens: 1 } });
    expect(anthropicMessagesResponseToHub(make('refusal')).finishReason).toEqual({ unified: 'content-filter', raw: 'refusal' });
    expect(anthropicMessagesResponseToHub(make('something_new')).finishReason).toEqual({ unified: 'other', raw: 'something_new' });
    expect(anthropicMessagesResponseToHub(make('max_tokens')).finishReason).toEqual({ unified: 'length', raw: 'max_tokens' });
  });
});
