import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../gateway-errors.ts';
import type { HubRequest } from '../../hub/hub-request.ts';
import { readJsonFixture } from '../../../test/formats/sse-fixtures.ts';
import { hubToOpenaiChatRequest, openaiChatRequestToHub } from './openai-chat-request.ts';

const fixture = (name: string) => readJsonFixture(new URL(`./__fixtures__/${name}`, import.meta.url));

function expectInvalid(body: unknown, param: string) {
  try {
    openaiChatRequestToHub(body);
  } catch (error) {
    expect(error).toBeInstanceOf(GatewayError);
    expect((error as GatewayError).status).toBe(400);
    expect((error as GatewayError).param).toBe(param);
    return;
  }
  throw new Error('expected a 400');
}

describe('openaiChatRequestToHub', () => {
  it('maps every field of a full request', () => {
    const { request, warnings } = openaiChatRequestToHub(fixture('openai-request-full.json'));
    expect(warnings).toEqual([]);
    expect(request.model).toBe('gpt-4o');
    expect(request.system).toEqual([{ type: 'text', text: 'You are terse.' }]);
    expect(request.messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'What is in this image, and the weather in Paris?' },
          { type: 'image', source: { kind: 'base64', data: 'iVBORw0KGgo=', mediaType: 'image/png' }, detail: 'low' },
          { type: 'image', source: { kind: 'url', url: 'https://example.com/cat.jpg' } },
        ],
      },
      {
        role: 'assistant',
        content: [
          { type: 'tool-call', id: 'call_1', name: 'get_weather', argumentsJson: '{"city":"Paris"}' },
          { type: 'tool-call', id: 'call_2', name: 'get_time', argumentsJson: '{"tz":"CET"}' },
        ],
      },
      {
        role: 'tool',
        content: [
          { type: 'tool-result', toolCallId: 'call_1', name: 'get_weather', content: '18C, cloudy', isError: false },
          { type: 'tool-result', toolCallId: 'call_2', name: 'get_time', content: [{ type: 'text', text: '14:05' }], isError: false },
        ],
      },
      { role: 'user', content: [{ type: 'text', text: 'Thanks. Answer in JSON.' }] },
    ]);
    expect(request.tools).toEqual([
      {
        name: 'get_weather',
        description: 'Weather for a city',
        parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
        strict: true,
      },
      { name: 'get_time', parameters: { type: 'object', properties: { tz: { type: 'string' } } } },
    ]);
    expect(request.toolChoice).toBe('auto');
    expect(request.parallelToolCalls).toBe(true);
    expect(request.maxOutputTokens).toBe(500);
    expect(request.temperature).toBe(0.2);
    expect(request.topP).toBe(0.9);
    expect(request.seed).toBe(7);
    expect(request.stopSequences).toEqual(['END']);
    expect(request.responseFormat).toEqual({
      type: 'json_schema',
      name: 'answer',
      schema: { type: 'object', properties: { weather: { type: 'string' } } },
      strict: true,
    });
    expect(request.reasoning).toEqual({ effort: 'medium' });
    expect(request.stream).toBe(true);
    expect(request.streamIncludeUsage).toBe(true);
    expect(request.user).toBe('user-42');
    expect(request.extensions).toEqual({ 'openai-chat': { logprobs: true } });
  });

  it('names the field at fault in a 400', () => {
    expectInvalid({ model: 'm', messages: [{ role: 'user', content: 'hi' }], temperature: 2.5 }, 'temperature');
    expectInvalid({ model: 'm', messages: [{ role: 'user', content: 'hi' }], top_p: 1.5 }, 'top_p');
    expectInvalid({ model: 'm', messages: [{ role: 'user', content: 'a' }, { role: 'assistant', content: 'b' }, { role: 'user', content: 5 }] }, 'messages[2].content');
    expectInvalid({ model: 'm', messages: [] }, 'messages');
    expectInvalid({ messages: [{ role: 'user', content: 'hi' }] }, 'model');
  });

  it('refuses audio parts it cannot translate, naming the part', () => {
    expectInvalid(
      { model: 'm', messages: [{ role: 'user', content: [{ type: 'input_audio', input_audio: { data: 'x', format: 'wav' } }] }] },
      'messages[0].content[0]',
    );
  });

  it('reads reasoning_effort none as disabled and minimal as low with a warning', () => {
    expect(openaiChatRequestToHub({ model: 'm', messages: [{ role: 'user', content: 'x' }], reasoning_effort: 'none' }).request.reasoning).toEqual({ disabled: true });
    const minimal = openaiChatRequestToHub({ model: 'm', messages: [{ role: 'user', content: 'x' }], reasoning_effort: 'minimal' });
    expect(minimal.request.reasoning).toEqual({ effort: 'low' });
    expect(minimal.warnings.map((w) => w.feature)).toEqual(['reasoning_effort']);
  });

  it('reads reasoning_content and max_tokens from a DeepSeek-style history', () => {
    const { request } = openaiChatRequestToHub({
      model: 'deepseek-reasoner',
      max_tokens: 64,
      stop: 'STOP',
      messages: [
        { role: 'user', content: 'hi' },
        { role: 'assistant', content: 'hello', reasoning_content: 'greet back' },
        { role: 'user', content: 'again' },
      ],
    });
    expect(request.maxOutputTokens).toBe(64);
    expect(request.stopSequences).toEqual(['STOP']);
    expect(request.messages[1]).toEqual({ role: 'assistant', content: [{ type: 'reasoning', text: 'greet back' }, { type: 'text', text: 'hello' }] });
  });
});

describe('hubToOpenaiChatRequest', () => {
  it('round-trips the full fixture to an equivalent OpenAI body', () => {
    const { request } = openaiChatRequestToHub(fixture('openai-request-full.json'));
    const { body, warnings } = hubToOpenaiChatRequest(request, 'gpt-4o-2024-08-06');
    expect(warnings).toEqual([]);
    expect(body).toEqual({
      model: 'gpt-4o-2024-08-06',
      messages: [
        { role: 'system', content: 'You are terse.' },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'What is in this image, and the weather in Paris?' },
            { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=', detail: 'low' } },
            { type: 'image_url', image_url: { url: 'https://example.com/cat.jpg' } },
          ],
        },
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            { id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } },
            { id: 'call_2', type: 'function', function: { name: 'get_time', arguments: '{"tz":"CET"}' } },
          ],
        },
        { role: 'tool', tool_call_id: 'call_1', content: '18C, cloudy' },
        { role: 'tool', tool_call_id: 'call_2', content: [{ type: 'text', text: '14:05' }] },
        { role: 'user', content: 'Thanks. Answer in JSON.' },
      ],
      tools: [
        {
          type: 'function',
          function: {
            name: 'get_weather',
            description: 'Weather for a city',
            parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
            strict: true,
          },
        },
        { type: 'function', function: { name: 'get_time', parameters: { type: 'object', properties: { tz: { type: 'string' } } } } },
      ],
      tool_choice: 'auto',
      parallel_tool_calls: true,
      max_completion_tokens: 500,
      temperature: 0.2,
      top_p: 0.9,
      seed: 7,
      stop: ['END'],
      response_format: {
        type: 'json_schema',
        json_schema: { name: 'answer', schema: { type: 'object', properties: { weather: { type: 'string' } } }, strict: true },
      },
      reasoning_effort: 'medium',
      stream: true,
      stream_options: { include_usage: true },
      user: 'user-42',
      logprobs: true,
    });
  });

  const base = (over: Partial<HubRequest>): HubRequest => ({
    model: 'm',
    system: [],
    messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }],
    tools: [],
    stopSequences: [],
    stream: false,
    extensions: {},
    ...over,
  });

  it('drops top_k with a warning and maps a budget to an effort', () => {
    const { body, warnings } = hubToOpenaiChatRequest(base({ topK: 40, maxOutputTokens: 100, reasoning: { budgetTokens: 20000 } }), 'o3');
    expect(body.top_k).toBeUndefined();
    expect(body.reasoning_effort).toBe('high');
    expect(body.max_completion_tokens).toBe(100);
    expect(warnings).toEqual([{ type: 'dropped', feature: 'top_k', detail: 'OpenAI chat has no top_k sampling parameter.' }]);
  });

  it('uses max_tokens without reasoning, and warns about fields from another format', () => {
    const { body, warnings } = hubToOpenaiChatRequest(
      base({ maxOutputTokens: 100, toolChoice: { type: 'tool', name: 'f' }, extensions: { 'anthropic-messages': { container: 'c1' } } }),
      'gpt-4o',
    );
    expect(body.max_tokens).toBe(100);
    expect(body.tool_choice).toEqual({ type: 'function', function: { name: 'f' } });
    expect(body.container).toBeUndefined();
    expect(warnings.map((w) => [w.type, w.feature])).toEqual([['dropped', 'container']]);
  });

  it('sends the images of tool results in a user message after the tool turn, with a warning', () => {
    const request = base({
      messages: [
        { role: 'assistant', content: [{ type: 'tool-call', id: 'c', name: 'shot', argumentsJson: '{}' }] },
        { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'c', content: [{ type: 'image', source: { kind: 'base64', data: 'AA', mediaType: 'image/png' } }], isError: false }] },
      ],
    });
    const { body, warnings } = hubToOpenaiChatRequest(request, 'gpt-4o');
    expect((body.messages as unknown[]).slice(1)).toEqual([
      { role: 'tool', tool_call_id: 'c', content: [{ type: 'text', text: '(its image follows in the next user message)' }] },
      { role: 'user', content: [{ type: 'text', text: 'Images returned by the tool calls above:' }, { type: 'image_url', image_url: { url: 'data:image/png;base64,AA' } }] },
    ]);
    expect(warnings.map((w) => w.feature)).toEqual(['messages[1].content']);
  });
});
