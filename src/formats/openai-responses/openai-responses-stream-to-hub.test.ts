import { describe, expect, it } from 'vitest';
import type { HubStreamPart } from '../../hub/hub-stream.ts';
import type { HubWarning } from '../../hub/hub-warnings.ts';
import { parseSse, readSseFixture, runStream, serialiseSse } from '../../../test/formats/sse-fixtures.ts';
import { hubToOpenaiResponsesStream, openaiResponsesStreamToHub } from './openai-responses-stream.ts';

const fixture = (name: string) => readSseFixture(new URL(`./__fixtures__/${name}`, import.meta.url));

describe('openaiResponsesStreamToHub', () => {
  it('reads reasoning summary parts, text and parallel calls, whole or streamed arguments, and usage', async () => {
    const parts = await runStream(openaiResponsesStreamToHub(), fixture('responses-reasoning-tools.events.sse'));
    expect(parts).toEqual([
      { type: 'start', id: 'resp_S1', model: 'gpt-5-2025-08-07' },
      { type: 'reasoning-delta', delta: 'Two lookups.' },
      { type: 'reasoning-delta', delta: '\n\n' },
      { type: 'reasoning-delta', delta: 'In parallel.' },
      { type: 'text-delta', delta: 'Checking' },
      { type: 'text-delta', delta: ' both.' },
      { type: 'tool-call-start', index: 0, id: 'call_x', name: 'get_weather' },
      { type: 'tool-call-delta', index: 0, argumentsDelta: '{"city":' },
      { type: 'tool-call-delta', index: 0, argumentsDelta: '"Paris"}' },
      { type: 'tool-call-end', index: 0 },
      { type: 'tool-call-start', index: 1, id: 'call_y', name: 'get_time' },
      { type: 'tool-call-delta', index: 1, argumentsDelta: '{"tz":"CET"}' },
      { type: 'tool-call-end', index: 1 },
      {
        type: 'finish',
        finishReason: { unified: 'tool-calls', raw: 'completed' },
        usage: { inputTokens: 2048, cachedInputTokens: 1536, outputTokens: 300, reasoningTokens: 256 },
      },
    ]);
  });

  it('skips a malformed event with a warning and turns an error event into an error part', async () => {
    const warnings: HubWarning[] = [];
    const parts = await runStream(openaiResponsesStreamToHub({ onWarning: (w) => warnings.push(w) }), fixture('responses-malformed-error.events.sse'));
    expect(parts.map((p) => p.type)).toEqual(['start', 'text-delta', 'error']);
    expect(parts[1]).toEqual({ type: 'text-delta', delta: 'B' });
    const error = (parts[2] as Extract<HubStreamPart, { type: 'error' }>).error;
    expect([error.status, error.kind, error.code, error.message]).toEqual([429, 'rate_limit_error', 'rate_limit_exceeded', 'Rate limit reached for gpt-5']);
    expect(warnings.map((w) => w.type)).toEqual(['dropped']);
  });

  it('reads response.incomplete as a length cut and response.failed as an error', async () => {
    const cut = await runStream(openaiResponsesStreamToHub(), [
      { event: 'response.created', data: '{"type":"response.created","response":{"id":"r","model":"m","output":[]}}' },
      { event: 'response.incomplete', data: '{"type":"response.incomplete","response":{"id":"r","model":"m","status":"incomplete","incomplete_details":{"reason":"max_output_tokens"},"output":[],"usage":{"input_tokens":1,"output_tokens":2}}}' },
    ]);
    expect(cut[1]).toEqual({
      type: 'finish',
      finishReason: { unified: 'length', raw: 'max_output_tokens' },
      usage: { inputTokens: 1, outputTokens: 2 },
    });
    const failed = await runStream(openaiResponsesStreamToHub(), [
      { event: 'response.failed', data: '{"type":"response.failed","response":{"id":"r","model":"m","status":"failed","output":[],"error":{"code":"server_error","message":"boom"}}}' },
    ]);
    expect(failed.map((p) => p.type)).toEqual(['start', 'error']);
    expect((failed[1] as Extract<HubStreamPart, { type: 'error' }>).error.message).toBe('boom');
  });

  it('reads back what the gateway writes (signatures aside): hub → SSE text → hub', async () => {
    const parts: HubStreamPart[] = [
      { type: 'start', id: 'resp_T', model: 'm' },
      { type: 'reasoning-delta', delta: 'Think' },
      { type: 'text-delta', delta: 'Hi ' },
      { type: 'text-delta', delta: 'there' },
      { type: 'tool-call-start', index: 0, id: 'c1', name: 'a' },
      { type: 'tool-call-delta', index: 0, argumentsDelta: '{}' },
      { type: 'tool-call-end', index: 0 },
      { type: 'tool-call-start', index: 1, id: 'c2', name: 'b' },
      { type: 'tool-call-delta', index: 1, argumentsDelta: '{"x":1}' },
      { type: 'tool-call-end', index: 1 },
      { type: 'finish', finishReason: { unified: 'tool-calls', raw: 'tool_calls' }, usage: { inputTokens: 5, cachedInputTokens: 1, cacheWriteTokens: 0, outputTokens: 7, reasoningTokens: 2 } },
    ];
    const text = serialiseSse(await runStream(hubToOpenaiResponsesStream({ requestModel: 'alias', created: 1 }), parts));
    const back = await runStream(openaiResponsesStreamToHub(), parseSse(text));
    expect(back).toEqual([
      { type: 'start', id: 'resp_T', model: 'alias' },
      ...parts.slice(1, -1),
      { type: 'finish', finishReason: { unified: 'tool-calls', raw: 'completed' }, usage: { inputTokens: 5, cachedInputTokens: 1, cacheWriteTokens: 0, outputTokens: 7, reasoningTokens: 2 } },
    ]);
  });
});
