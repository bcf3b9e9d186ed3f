import { describe, expect, it } from 'vitest';
import type { HubRequest } from '../../hub/hub-request.ts';
import { readJsonFixture } from '../../../test/formats/sse-fixtures.ts';
import { anthropicMessagesRequestToHub, hubToAnthropicMessagesRequest } from './anthropic-messages-request.ts';

const fixture = (name: string) => readJsonFixture(new URL(`./__fixtures__/${name}`, import.meta.url));

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

describe('anthropicMessagesRequestToHub', () => {
  it('maps system blocks, images, thinking with signatures, tool use and results', () => {
    const { request, warnings } = anthropicMessagesRequestToHub(fixture('anthropic-request-full.json'));
    expect(request.system).toEqual([
      { type: 'text', text: 'You are a weather bot.' },
      { type: 'text', text: 'Be brief.' },
    ]);
    expect(request.messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Weather in Paris? Here is a photo.' },
          { type: 'image', source: { kind: 'base64', data: '/9j/4AAQ', mediaType: 'image/jpeg' } },
        ],
      },
      {
        role: 'assistant',
        content: [
          { type: 'reasoning', text: 'I should call the tool.', signature: 'sig-abc', signatureFamily: 'anthropic' },
          { type: 'reasoning', text: '', redactedData: 'ENCRYPTED', signatureFamily: 'anthropic' },
          { type: 'text', text: 'Checking.' },
          { type: 'tool-call', id: 'toolu_1', name: 'get_weather', argumentsJson: '{"city":"Paris"}' },
        ],
      },
      { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'toolu_1', name: 'get_weather', content: [{ type: 'text', text: '18C' }], isError: false }] },
      { role: 'user', content: [{ type: 'text', text: 'And tomorrow?' }] },
    ]);
    expect(request.tools).toEqual([
      { name: 'get_weather', description: 'Weather for a city', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } },
    ]);
    expect(request.toolChoice).toBe('auto');
    expect(request.parallelToolCalls).toBe(false);
    expect(request.maxOutputTokens).toBe(2048);
    expect(request.reasoning).toEqual({ includeThoughts: true, budgetTokens: 1500 });
    expect(request.stopSequences).toEqual(['###']);
    expect(request.temperature).toBe(1);
    expect(request.topK).toBe(5);
    expect(request.user).toBe('u-9');
    expect(request.extensions).toEqual({
      'anthropic-messages': { service_tier: 'auto', server_tools: [{ type: 'web_search_20250305', name: 'web_search', max_uses: 3 }] },
    });
    expect(warnings.map((w) => w.feature)).toEqual(['cache_control']);
  });

  it('validates temperature 0..1, top_p 0..1 and a required max_tokens, naming the field', () => {
    const ok = { model: 'c', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] };
    expect(() => anthropicMessagesRequestToHub({ ...ok, temperature: 1.5 })).toThrowError(expect.objectContaining({ status: 400, param: 'temperature' }));
    expect(() => anthropicMessagesRequestToHub({ ...ok, top_p: 2 })).toThrowError(expect.objectContaining({ param: 'top_p' }));
    expect(() => anthropicMessagesRequestToHub({ model: 'c', messages: ok.messages })).toThrowError(expect.objectContaining({ param: 'max_tokens' }));
    expect(() => anthropicMessagesRequestToHub({ ...ok, messages: [{ role: 'tool', content: 'x' }] })).toThrowError(expect.objectContaining({ param: 'messages[0].role' }));
  });

  it('takes system messages inside messages: leading ones join the system prompt, later ones stay in place', () => {
    const { request } = anthropicMessagesRequestToHub({
      model: 'c', max_tokens: 10, system: 'Top.',
      messages: [
        { role: 'system', content: [{ type: 'text', text: 'Lead.' }] },
        { role: 'user', content: 'hi' },
        { role: 'system', content: 'Answer in French.' },
        { role: 'user', content: 'again' },
      ],
    });
    expect(request.system).toEqual([{ type: 'text', text: 'Top.' }, { type: 'text', text: 'Lead.' }]);
    expect(request.messages.map((m) => m.role)).toEqual(['user', 'system', 'user']);
    expect(request.messages[1]).toEqual({ role: 'system', content: [{ type: 'text', text: 'Answer in French.' }] });
    expect(() => anthropicMessagesRequestToHub({ model: 'c', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }, { role: 'system', content: [{ type: 'image', source: { type: 'url', url: 'https://x/y.png' } }] }] }))
      .toThrowError(expect.objectContaining({ status: 400, param: 'messages[1].content[0]' }));
  });

  it('folds system messages into the top-level system when writing for an Anthropic upstream, with a warning', () => {
    const { request } = anthropicMessagesRequestToHub({ model: 'c', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }, { role: 'system', content: 'Be brief.' }, { role: 'user', content: 'again' }] });
    const { body, warnings } = hubToAnthropicMessagesRequest(request, 'claude-x');
    expect(body.system).toEqual([{ type: 'text', text: 'Be brief.' }]);
    expect((body.messages as { role: string }[]).map((m) => m.role)).toEqual(['user']);
    expect(warnings.map((w) => w.feature)).toEqual(['messages[1].role']);
  });

  it('reads documents (text and PDF sources) and refuses Files API documents, naming the block', () => {
    const text = { model: 'c', max_tokens: 10, messages: [{ role: 'user', content: [{ type: 'document', title: 'notes', source: { type: 'text', media_type: 'text/plain', data: 'x' } }] }] };
    expect(anthropicMessagesRequestToHub(text).request.messages[0]!.content[0]).toEqual({ type: 'document', source: { kind: 'base64', data: 'eA==', mediaType: 'text/plain' }, filename: 'notes' });
    const file = { model: 'c', max_tokens: 10, messages: [{ role: 'user', content: [{ type: 'document', source: { type: 'file', file_id: 'f' } }] }] };
    expect(() => anthropicMessagesRequestToHub(file)).toThrowError(expect.objectContaining({ status: 400, param: 'messages[0].content[0].source' }));
  });

  it('reads structured output and adaptive thinking with an effort', () => {
    const { request } = anthropicMessagesRequestToHub({
      model: 'c',
      max_tokens: 10,
      messages: [{ role: 'user', content: 'hi' }],
      thinking: { type: 'adaptive' },
      output_config: { effort: 'medium', format: { type: 'json_schema', schema: { type: 'object' } } },
    });
    expect(request.reasoning).toEqual({ includeThoughts: true, effort: 'medium' });
    expect(request.responseFormat).toEqual({ type: 'json_schema', name: 'response', schema: { type: 'object' } });
  });
});

describe('hubToAnthropicMessagesRequest', () => {
  it('round-trips the full fixture, thinking signatures and server tools included', () => {
    const { request } = anthropicMessagesRequestToHub(fixture('anthropic-request-full.json'));
    const { body, warnings } = hubToAnthropicMessagesRequest(request, 'claude-sonnet-4-5-20250929');
    expect(body).toEqual({
      model: 'claude-sonnet-4-5-20250929',
      max_tokens: 2048,
      system: [
        { type: 'text', text: 'You are a weather bot.' },
        { type: 'text', text: 'Be brief.' },
      ],
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Weather in Paris? Here is a photo.' },
            { type: 'image', source: { type: 'base64', media_type: 'image/jpeg', data: '/9j/4AAQ' } },
          ],
        },
        {
          role: 'assistant',
          content: [
            { type: 'thinking', thinking: 'I should call the tool.', signature: 'sig-abc' },
            { type: 'redacted_thinking', data: 'ENCRYPTED' },
            { type: 'text', text: 'Checking.' },
            { type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: 'Paris' } },
          ],
        },
        {
          role: 'user',
          content: [
            { type: 'tool_result', tool_use_id: 'toolu_1', content: [{ type: 'text', text: '18C' }] },
            { type: 'text', text: 'And tomorrow?' },
          ],
        },
      ],
      thinking: { type: 'enabled', budget_tokens: 1500 },
      temperature: 1,
      stop_sequences: ['###'],
      tools: [
        { name: 'get_weather', description: 'Weather for a city', input_schema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } },
        { type: 'web_search_20250305', name: 'web_search', max_uses: 3 },
      ],
      tool_choice: { type: 'auto', disable_parallel_tool_use: true },
      stream: false,
      metadata: { user_id: 'u-9' },
      service_tier: 'auto',
    });
    expect(warnings).toEqual([{ type: 'dropped', feature: 'top_k', detail: 'Anthropic does not take top_k while thinking.' }]);
  });

  it('defaults max_tokens to 4096 and clamps a temperature above 1 with a warning', () => {
    const { body, warnings } = hubToAnthropicMessagesRequest(base({ temperature: 1.6, seed: 3 }), 'claude');
    expect(body.max_tokens).toBe(4096);
    expect(body.temperature).toBe(1);
    expect(warnings.map((w) => [w.type, w.feature])).toEqual([
      ['unsupported', 'temperature'],
      ['dropped', 'seed'],
    ]);
  });

  it('turns an effort into a thinking budget below max_tokens', () => {
    expect(hubToAnthropicMessagesRequest(base({ reasoning: { effort: 'high' } }), 'c').body).toMatchObject({
      max_tokens: 24576 + 4096,
      thinking: { type: 'enabled', budget_tokens: 24576 },
    });
    const capped = hubToAnthropicMessagesRequest(base({ maxOutputTokens: 4000, reasoning: { effort: 'high' } }), 'c');
    expect(capped.body).toMatchObject({ max_tokens: 4000, thinking: { type: 'enabled', budget_tokens: 3999 } });
    expect(capped.warnings[0]?.feature).toBe('reasoning.budget_tokens');
    expect(() => hubToAnthropicMessagesRequest(base({ maxOutputTokens: 500, reasoning: { effort: 'low' } }), 'c')).toThrowError(
      expect.objectContaining({ status: 400, param: 'max_tokens' }),
    );
  });

  it('drops unsigned reasoning, maps required to any and json_schema to output_config', () => {
    const { body, warnings } = hubToAnthropicMessagesRequest(
      base({
        messages: [
          { role: 'user', content: [{ type: 'text', text: 'q' }] },
          { role: 'assistant', content: [{ type: 'reasoning', text: 'openai thoughts' }, { type: 'text', text: 'a' }] },
          { role: 'user', content: [{ type: 'text', text: 'q2' }] },
        ],
        tools: [{ name: 'f', parameters: { type: 'object' } }],
        toolChoice: 'required',
        responseFormat: { type: 'json_schema', name: 'x', schema: { type: 'object' }, strict: true },
      }),
      'c',
    );
    expect((body.messages as any[])[1]).toEqual({ role: 'assistant', content: [{ type: 'text', text: 'a' }] });
    expect(body.tool_choice).toEqual({ type: 'any' });
    expect(body.output_config).toEqual({ format: { type: 'json_schema', schema: { type: 'object' } } });
    expect(warnings.map((w) => w.feature)).toEqual(['messages[1].content[0]']);
  });

  it('refuses tool call arguments that are not a JSON object, naming the call', () => {
    const request = base({ messages: [{ role: 'assistant', content: [{ type: 'tool-call', id: 't', name: 'f', argumentsJson: '[1' }] }] });
    expect(() => hubToAnthropicMessagesRequest(request, 'c')).toThrowError(expect.objectContaining({ status: 400, param: 'messages[0].content[0].arguments' }));
  });
});
