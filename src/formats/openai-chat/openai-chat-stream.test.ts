import { describe, expect, it } from 'vitest';
import type { HubWarning } from '../../hub/hub-warnings.ts';
import type { HubStreamPart } from '../../hub/hub-stream.ts';
import { upstreamStatusError } from '../../hub/hub-errors.ts';
import { eventJson, readSseFixture, runStream } from '../../../test/formats/sse-fixtures.ts';
import { hubToOpenaiChatStream, openaiChatStreamToHub } from './openai-chat-stream.ts';

const fixture = (name: string) => readSseFixture(new URL(`./__fixtures__/${name}`, import.meta.url));

describe('openaiChatStreamToHub', () => {
  it('reads text with the usage chunk after the finish chunk', async () => {
    const parts = await runStream(openaiChatStreamToHub(), fixture('openai-text-usage.chunks.sse'));
    expect(parts).toEqual([
      { type: 'start', id: 'chatcmpl-Bx1', model: 'gpt-4o-2024-08-06' },
      { type: 'text-delta', delta: 'Hello' },
      { type: 'text-delta', delta: ', world' },
      {
        type: 'finish',
        finishReason: { unified: 'stop', raw: 'stop' },
        usage: { inputTokens: 1200, cachedInputTokens: 1024, outputTokens: 40, reasoningTokens: 12 },
      },
    ]);
  });

  it('reads parallel tool calls with streamed argument deltas', async () => {
    const parts = await runStream(openaiChatStreamToHub(), fixture('openai-parallel-tools.chunks.sse'));
    expect(parts).toEqual([
      { type: 'start', id: 'chatcmpl-T1', model: 'gpt-4o-2024-08-06' },
      { type: 'tool-call-start', index: 0, id: 'call_aaa', name: 'get_weather' },
      { type: 'tool-call-delta', index: 0, argumentsDelta: '{"city":' },
      { type: 'tool-call-delta', index: 0, argumentsDelta: ' "Paris"}' },
      { type: 'tool-call-end', index: 0 },
      { type: 'tool-call-start', index: 1, id: 'call_bbb', name: 'get_time' },
      { type: 'tool-call-delta', index: 1, argumentsDelta: '{"tz":"CET"}' },
      { type: 'tool-call-end', index: 1 },
      {
        type: 'finish',
        finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
        usage: { inputTokens: 80, cachedInputTokens: 0, outputTokens: 30, reasoningTokens: 0 },
      },
    ]);
  });

  it('skips a malformed event with a warning and goes on', async () => {
    const warnings: HubWarning[] = [];
    const parts = await runStream(openaiChatStreamToHub({ onWarning: (w) => warnings.push(w) }), fixture('openai-malformed.chunks.sse'));
    expect(parts.map((p) => p.type)).toEqual(['start', 'text-delta', 'finish']);
    expect(parts[1]).toEqual({ type: 'text-delta', delta: 'B' });
    expect(parts[2]).toMatchObject({ finishReason: { unified: 'length', raw: 'length' } });
    expect(warnings).toHaveLength(1);
    expect(warnings[0]?.type).toBe('dropped');
  });

  it('turns an error event into an error part', async () => {
    const parts = await runStream(openaiChatStreamToHub(), [
      { data: '{"id":"c","object":"chat.completion.chunk","model":"m","choices":[{"index":0,"delta":{"content":"x"}}]}' },
      { data: '{"error":{"message":"The server had an error","type":"server_error","param":null,"code":null}}' },
    ]);
    expect(parts.map((p) => p.type)).toEqual(['start', 'text-delta', 'error']);
    const error = (parts[2] as Extract<HubStreamPart, { type: 'error' }>).error;
    expect(error.message).toBe('The server had an error');
    expect(error.status).toBe(500);
  });
});

describe('hubToOpenaiChatStream', () => {
  const parts: HubStreamPart[] = [
    { type: 'start', id: 'msg_1', model: 'claude-x' },
    { type: 'reasoning-delta', delta: 'Let me think' },
    { type: 'reasoning-delta', delta: '', signature: 'sig' },
    { type: 'text-delta', delta: 'Sure.' },
    { type: 'tool-call-start', index: 0, id: 'toolu_1', name: 'get_weather' },
    { type: 'tool-call-delta', index: 0, argumentsDelta: '{"city":' },
    { type: 'tool-call-delta', index: 0, argumentsDelta: '"Paris"}' },
    { type: 'tool-call-end', index: 0 },
    {
      type: 'finish',
      finishReason: { unified: 'tool-calls', raw: 'tool_use' },
      usage: { inputTokens: 100, cachedInputTokens: 60, cacheWriteTokens: 10, outputTokens: 20, reasoningTokens: 5 },
    },
  ];

  it('writes role first, deltas, the finish chunk, usage and [DONE]', async () => {
    const events = await runStream(hubToOpenaiChatStream({ requestModel: 'alias', includeUsage: true, created: 9 }), parts);
    const json = eventJson(events);
    expect(json.map((c) => (c === '[DONE]' ? c : c.choices[0]?.delta ?? 'usage'))).toEqual([
      { role: 'assistant', content: '' },
      { reasoning_content: 'Let me think' },
      { content: 'Sure.' },
      { tool_calls: [{ index: 0, id: 'toolu_1', type: 'function', function: { name: 'get_weather', arguments: '' } }] },
      { tool_calls: [{ index: 0, function: { arguments: '{"city":' } }] },
      { tool_calls: [{ index: 0, function: { arguments: '"Paris"}' } }] },
      {},
      'usage',
      '[DONE]',
    ]);
    const first = json[0] as Record<string, any>;
    expect(first).toMatchObject({ id: 'chatcmpl-msg_1', object: 'chat.completion.chunk', created: 9, model: 'alias' });
    expect((json[6] as Record<string, any>).choices[0].finish_reason).toBe('tool_calls');
    expect((json[7] as Record<string, any>).usage).toEqual({
      prompt_tokens: 100,
      completion_tokens: 20,
      total_tokens: 120,
      prompt_tokens_details: { cached_tokens: 60, cache_write_tokens: 10 },
      completion_tokens_details: { reasoning_tokens: 5 },
    });
  });

  it('leaves the usage chunk out unless asked', async () => {
    const events = await runStream(hubToOpenaiChatStream({ requestModel: 'alias', created: 9 }), parts);
    expect(events).toHaveLength(8);
    expect(events[7]).toEqual({ data: '[DONE]' });
  });

  it('ends a failed stream with an error event and no [DONE]', async () => {
    const events = await runStream(hubToOpenaiChatStream({ requestModel: 'alias', created: 9 }), [
      { type: 'start', id: 'a', model: 'm' },
      { type: 'text-delta', delta: 'x' },
      { type: 'error', error: upstreamStatusError(529, { message: 'Overloaded' }) },
      { type: 'text-delta', delta: 'ignored' },
    ]);
    expect(events).toHaveLength(3);
    expect(JSON.parse(events[2]!.data)).toEqual({ error: { message: 'Overloaded', type: 'overloaded_error', param: null, code: null } });
  });
});
