import { describe, expect, it } from 'vitest';
import { readJsonFixture } from '../../../test/formats/sse-fixtures.ts';
import { hubToOpenaiChatResponse, openaiChatResponseToHub } from './openai-chat-response.ts';

const fixture = (name: string) => readJsonFixture(new URL(`./__fixtures__/${name}`, import.meta.url));

describe('openai chat responses', () => {
  it('reads text, parallel tool calls, finish reason and cached/reasoning usage', () => {
    const hub = openaiChatResponseToHub(fixture('openai-response-tools.json'));
    expect(hub).toEqual({
      id: 'chatcmpl-R1',
      model: 'gpt-4o-2024-08-06',
      content: [
        { type: 'text', text: 'Checking both.' },
        { type: 'tool-call', id: 'call_x', name: 'get_weather', argumentsJson: '{"city":"Paris"}' },
        { type: 'tool-call', id: 'call_y', name: 'get_time', argumentsJson: '{"tz":"CET"}' },
      ],
      finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
      usage: { inputTokens: 2048, cachedInputTokens: 1536, outputTokens: 300, reasoningTokens: 256 },
    });
  });

  it('writes a chat.completion naming the requested model', () => {
    const hub = openaiChatResponseToHub(fixture('openai-response-tools.json'));
    const out = hubToOpenaiChatResponse(hub, { requestModel: 'my-alias', created: 1 });
    expect(out).toEqual({
      id: 'chatcmpl-R1',
      object: 'chat.completion',
      created: 1,
      model: 'my-alias',
      choices: [
        {
          index: 0,
          message: {
            role: 'assistant',
            content: 'Checking both.',
            refusal: null,
            tool_calls: [
              { id: 'call_x', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
              { id: 'call_y', type: 'function', function: { name: 'get_time', arguments: '{"tz":"CET"}' } },
            ],
          },
          logprobs: null,
          finish_reason: 'tool_calls',
        },
      ],
      usage: {
        prompt_tokens: 2048,
        completion_tokens: 300,
        total_tokens: 2348,
        prompt_tokens_details: { cached_tokens: 1536 },
        completion_tokens_details: { reasoning_tokens: 256 },
      },
    });
  });

  it('maps unknown finish reasons to other, keeping the raw value, and reasoning to reasoning_content', () => {
    const hub = openaiChatResponseToHub({
      id: 'x',
      model: 'deepseek-reasoner',
      choices: [{ index: 0, message: { role: 'assistant', content: 'ok', reasoning_content: 'think' }, finish_reason: 'insufficient_system_resource' }],
    });
    expect(hub.finishReason).toEqual({ unified: 'other', raw: 'insufficient_system_resource' });
    expect(hub.content).toEqual([{ type: 'reasoning', text: 'think' }, { type: 'text', text: 'ok' }]);
    const out = hubToOpenaiChatResponse(hub, { requestModel: 'r', created: 1 }) as any;
    expect(out.choices[0].message.reasoning_content).toBe('think');
    expect(out.choices[0].finish_reason).toBe('stop');
  });

  it('refuses a body without choices as a 502', () => {
    expect(() => openaiChatResponseToHub({ id: 'x', model: 'y' })).toThrowError(expect.objectContaining({ status: 502, gatewayCode: 'GW_ERR_UPSTREAM_BAD_RESPONSE' }));
  });
});
