// Cross-format hops through the hub: requests, whole responses and streams from one wire format to another.
import { describe, expect, it } from 'vitest';
import { getFormat } from '../../src/formats/index.ts';
import { anthropicMessagesRequestToHub } from '../../src/formats/anthropic-messages/anthropic-messages-request.ts';
import { hubToOpenaiChatRequest } from '../../src/formats/openai-chat/openai-chat-request.ts';
import { openaiChatRequestToHub } from '../../src/formats/openai-chat/openai-chat-request.ts';
import { hubToGeminiGenerateRequest } from '../../src/formats/gemini-generate/gemini-generate-request.ts';
import { openaiChatStreamToHub } from '../../src/formats/openai-chat/openai-chat-stream.ts';
import { hubToAnthropicMessagesStream } from '../../src/formats/anthropic-messages/anthropic-messages-stream.ts';
import { eventJson, eventNames, readJsonFixture, readSseFixture, runStream } from './sse-fixtures.ts';

const fixtureOf = (format: string, name: string) => new URL(`../../src/formats/${format}/__fixtures__/${name}`, import.meta.url);

async function pipe<T>(events: T[], ...streams: TransformStream<any, any>[]): Promise<any[]> {
  let values: any[] = events;
  for (const stream of streams) values = await runStream(stream, values);
  return values;
}

describe('Anthropic request → hub → OpenAI request', () => {
  it('moves system, thinking, tool use and results into OpenAI shapes, warning about what is dropped', () => {
    const { request } = anthropicMessagesRequestToHub(readJsonFixture(fixtureOf('anthropic-messages', 'anthropic-request-full.json')));
    const { body, warnings } = hubToOpenaiChatRequest(request, 'gpt-4o');
    expect(body).toEqual({
      model: 'gpt-4o',
      messages: [
        { role: 'system', content: [{ type: 'text', text: 'You are a weather bot.' }, { type: 'text', text: 'Be brief.' }] },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Weather in Paris? Here is a photo.' },
            { type: 'image_url', image_url: { url: 'data:image/jpeg;base64,/9j/4AAQ' } },
          ],
        },
        {
          role: 'assistant',
          content: 'Checking.',
          tool_calls: [{ id: 'toolu_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }],
        },
        { role: 'tool', tool_call_id: 'toolu_1', content: [{ type: 'text', text: '18C' }] },
        { role: 'user', content: 'And tomorrow?' },
      ],
      tools: [
        {
          type: 'function',
          function: { name: 'get_weather', description: 'Weather for a city', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } },
        },
      ],
      tool_choice: 'auto',
      parallel_tool_calls: false,
      max_completion_tokens: 2048,
      temperature: 1,
      stop: ['###'],
      reasoning_effort: 'low',
      stream: false,
      user: 'u-9',
    });
    expect(warnings.map((w) => [w.type, w.feature])).toEqual([
      ['dropped', 'messages[1].reasoning'],
      ['dropped', 'top_k'],
      ['unsupported', 'reasoning.include_thoughts'],
      ['dropped', 'service_tier'],
      ['dropped', 'web_search'],
    ]);
  });
});

describe('OpenAI request → hub → Gemini request', () => {
  it('names tool results by their call, inlines the data URL image and maps effort to a budget', () => {
    const { request } = openaiChatRequestToHub(readJsonFixture(fixtureOf('openai-chat', 'openai-request-full.json')));
    // The relay would fetch https URLs first; this request keeps only the inline image.
    const user = request.messages[0]!;
    if (user.role === 'user') user.content = user.content.filter((p) => p.type !== 'image' || p.source.kind === 'base64');
    const { body, warnings } = hubToGeminiGenerateRequest(request, 'gemini-2.5-pro');
    expect(body.contents).toEqual([
      { role: 'user', parts: [{ text: 'What is in this image, and the weather in Paris?' }, { inlineData: { mimeType: 'image/png', data: 'iVBORw0KGgo=' } }] },
      { role: 'model', parts: [{ functionCall: { name: 'get_weather', args: { city: 'Paris' } } }, { functionCall: { name: 'get_time', args: { tz: 'CET' } } }] },
      {
        role: 'user',
        parts: [
          { functionResponse: { name: 'get_weather', response: { output: '18C, cloudy' } } },
          { functionResponse: { name: 'get_time', response: { output: '14:05' } } },
          { text: 'Thanks. Answer in JSON.' },
        ],
      },
    ]);
    expect(body.systemInstruction).toEqual({ parts: [{ text: 'You are terse.' }] });
    expect(body.toolConfig).toEqual({ functionCallingConfig: { mode: 'AUTO' } });
    expect(body.generationConfig).toEqual({
      maxOutputTokens: 500,
      temperature: 0.2,
      topP: 0.9,
      seed: 7,
      stopSequences: ['END'],
      responseMimeType: 'application/json',
      responseJsonSchema: { type: 'object', properties: { weather: { type: 'string' } } },
      thinkingConfig: { thinkingBudget: 8192 },
    });
    expect(warnings.map((w) => w.feature)).toEqual(['user', 'logprobs']);
  });
});

describe('OpenAI stream → hub → Anthropic stream', () => {
  it('produces the exact Anthropic event sequence for parallel tool calls', async () => {
    const events = await pipe(
      readSseFixture(fixtureOf('openai-chat', 'openai-parallel-tools.chunks.sse')),
      openaiChatStreamToHub(),
      hubToAnthropicMessagesStream({ requestModel: 'claude-alias' }),
    );
    expect(eventNames(events)).toEqual([
      'message_start',
      'content_block_start', 'ping', 'content_block_delta', 'content_block_delta', 'content_block_stop',
      'content_block_start', 'content_block_delta', 'content_block_stop',
      'message_delta', 'message_stop',
    ]);
    const json = eventJson(events) as Record<string, any>[];
    expect(json[0]).toEqual({
      type: 'message_start',
      message: {
        id: 'msg_chatcmpl-T1',
        type: 'message',
        role: 'assistant',
        model: 'claude-alias',
        content: [],
        stop_reason: null,
        stop_sequence: null,
        // No client body here to count from: the local count of nothing.
        usage: { input_tokens: 0, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: 0 },
      },
    });
    expect(json[1]).toEqual({ type: 'content_block_start', index: 0, content_block: { type: 'tool_use', id: 'call_aaa', name: 'get_weather', input: {} } });
    expect(json[3]).toEqual({ type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: '{"city":' } });
    expect(json[6]).toEqual({ type: 'content_block_start', index: 1, content_block: { type: 'tool_use', id: 'call_bbb', name: 'get_time', input: {} } });
    expect(json[9]).toEqual({
      type: 'message_delta',
      delta: { stop_reason: 'tool_use', stop_sequence: null },
      usage: { input_tokens: 80, output_tokens: 30, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
    });
    expect(json[10]).toEqual({ type: 'message_stop' });
  });

  it('turns OpenAI cached prompt tokens into Anthropic cache reads, excluded from input_tokens', async () => {
    const events = await pipe(
      readSseFixture(fixtureOf('openai-chat', 'openai-text-usage.chunks.sse')),
      openaiChatStreamToHub(),
      hubToAnthropicMessagesStream({ requestModel: 'c' }),
    );
    expect(eventNames(events)).toEqual([
      'message_start', 'content_block_start', 'ping', 'content_block_delta', 'content_block_delta', 'content_block_stop', 'message_delta', 'message_stop',
    ]);
    expect((eventJson(events)[6] as any).usage).toEqual({ input_tokens: 176, output_tokens: 40, cache_creation_input_tokens: 0, cache_read_input_tokens: 1024 });
  });
});

describe('every pair of formats through the registry', () => {
  const streams = {
    'openai-chat': 'openai-parallel-tools.chunks.sse',
    'anthropic-messages': 'anthropic-thinking-tools.events.sse',
    'gemini-generate': 'gemini-thinking-tools.chunks.sse',
  } as const;
  const names = Object.keys(streams) as (keyof typeof streams)[];

  for (const from of names) {
    for (const to of names) {
      it(`${from} stream → ${to} stream → hub keeps text, tool calls and the finish`, async () => {
        const source = getFormat(from);
        const target = getFormat(to);
        let n = 0;
        const generateId = () => `id_${++n}`;
        const direct = await pipe(readSseFixture(fixtureOf(from, streams[from])), source.streamToHub({ generateId }));
        const converted = await pipe(direct, target.hubToStream({ requestModel: 'alias', created: 1, includeUsage: true }), target.streamToHub({ generateId }));
        const summary = (parts: any[]) => ({
          text: parts.filter((p) => p.type === 'text-delta').map((p) => p.delta).join(''),
          calls: parts.filter((p) => p.type === 'tool-call-start').map((p) => p.name),
          args: parts.filter((p) => p.type === 'tool-call-delta').map((p) => p.argumentsDelta).join(''),
          finish: parts.find((p) => p.type === 'finish')?.finishReason.unified,
          output: parts.find((p) => p.type === 'finish')?.usage.outputTokens,
        });
        const a = summary(direct);
        const b = summary(converted);
        expect(b.text).toBe(a.text);
        expect(b.calls).toEqual(a.calls);
        // Gemini re-serialises whole argument objects, so compare parsed arguments, not their spelling.
        const parsedArgs = (s: string) => s.replace(/\}\{/g, '}\n{').split('\n').filter(Boolean).map((x) => JSON.parse(x));
        expect(parsedArgs(b.args)).toEqual(parsedArgs(a.args));
        expect(b.finish).toBe('tool-calls');
        expect(b.output).toBe(a.output);
      });
    }
  }
});

describe('whole responses across formats', () => {
  it('Gemini response → hub → OpenAI and Anthropic responses', () => {
    const hub = getFormat('gemini-generate').responseToHub(readJsonFixture(fixtureOf('gemini-generate', 'gemini-response-tools.json')), { generateId: () => 'call_g1' });
    const openai = getFormat('openai-chat').hubToResponse(hub, { requestModel: 'gpt-alias', created: 5 }) as any;
    expect(openai.choices[0]).toEqual({
      index: 0,
      message: {
        role: 'assistant',
        content: 'Calling.',
        refusal: null,
        reasoning_content: 'Thinking about it.',
        tool_calls: [{ id: 'call_g1__ts_Q2lRc2ln', type: 'function', function: { name: 'get_time', arguments: '{"tz":"CET"}' } }],
      },
      logprobs: null,
      finish_reason: 'tool_calls',
    });
    expect(openai.usage).toEqual({
      prompt_tokens: 900,
      completion_tokens: 125,
      total_tokens: 1025,
      prompt_tokens_details: { cached_tokens: 512 },
      completion_tokens_details: { reasoning_tokens: 100 },
    });
    const anthropic = getFormat('anthropic-messages').hubToResponse(hub, { requestModel: 'claude-alias' }) as any;
    expect(anthropic.stop_reason).toBe('tool_use');
    expect(anthropic.usage).toEqual({ input_tokens: 388, output_tokens: 125, cache_creation_input_tokens: 0, cache_read_input_tokens: 512 });
  });
});

describe('Gemini thought signatures through formats that have no field for them', () => {
  it('ride in the OpenAI tool call id and come back to Gemini with the call', async () => {
    const events = await pipe(
      readSseFixture(fixtureOf('gemini-generate', 'gemini-thinking-tools.chunks.sse')),
      getFormat('gemini-generate').streamToHub({ generateId: () => 'call_g' }),
      getFormat('openai-chat').hubToStream({ requestModel: 'gemini-via-openai', created: 1 }),
    );
    const ids = (eventJson(events) as any[]).flatMap((c) => (c === '[DONE]' ? [] : (c.choices[0]?.delta.tool_calls ?? []))).map((t: any) => t.id).filter(Boolean);
    expect(ids).toEqual(['call_g__ts_Q2lRQjBlMktiMQ', 'call_g']);
    // The client echoes the ids in its next request.
    const { request } = openaiChatRequestToHub({
      model: 'gemini-via-openai',
      messages: [
        { role: 'user', content: 'weather?' },
        { role: 'assistant', content: null, tool_calls: [{ id: ids[0], type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }] },
        { role: 'tool', tool_call_id: ids[0], content: '18C' },
      ],
    });
    expect(request.messages[1]).toEqual({
      role: 'assistant',
      content: [{ type: 'tool-call', id: 'call_g', name: 'get_weather', argumentsJson: '{"city":"Paris"}', signature: 'CiQB0e2Kb1' }],
    });
    const { body } = hubToGeminiGenerateRequest(request, 'gemini-3-pro');
    expect((body.contents as any[])[1]).toEqual({
      role: 'model',
      parts: [{ functionCall: { name: 'get_weather', args: { city: 'Paris' } }, thoughtSignature: 'CiQB0e2Kb1' }],
    });
    expect((body.contents as any[])[2]).toEqual({ role: 'user', parts: [{ functionResponse: { name: 'get_weather', response: { output: '18C' } } }] });
  });

  it('survive base64 characters an Anthropic id may not hold', () => {
    const hub = getFormat('gemini-generate').responseToHub(
      { candidates: [{ content: { role: 'model', parts: [{ functionCall: { name: 'f', args: {} }, thoughtSignature: 'a+b/c==' }] }, finishReason: 'STOP' }], responseId: 'r' },
      { generateId: () => 'toolu_x' },
    );
    const message = getFormat('anthropic-messages').hubToResponse(hub, { requestModel: 'c' }) as any;
    expect(message.content[0].id).toBe('toolu_x__ts_YStiL2M9PQ');
    expect(message.content[0].id).toMatch(/^[a-zA-Z0-9_-]+$/);
    const { request } = anthropicMessagesRequestToHub({
      model: 'c',
      max_tokens: 10,
      messages: [
        { role: 'user', content: 'q' },
        { role: 'assistant', content: message.content },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: message.content[0].id, content: 'ok' }] },
      ],
    });
    expect(request.messages[1]).toMatchObject({ content: [{ type: 'tool-call', id: 'toolu_x', signature: 'a+b/c==' }] });
    expect(request.messages[2]).toMatchObject({ content: [{ type: 'tool-result', toolCallId: 'toolu_x', name: 'f' }] });
  });
});
