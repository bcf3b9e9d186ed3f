import { describe, expect, it } from 'vitest';
import type { HubStreamPart } from '../../hub/hub-stream.ts';
import type { HubWarning } from '../../hub/hub-warnings.ts';
import { eventJson, readSseFixture, runStream } from '../../../test/formats/sse-fixtures.ts';
import { geminiGenerateStreamToHub, hubToGeminiGenerateStream } from './gemini-generate-stream.ts';

const fixture = (name: string) => readSseFixture(new URL(`./__fixtures__/${name}`, import.meta.url));
const counter = () => {
  let n = 0;
  return () => `gen_${++n}`;
};

describe('geminiGenerateStreamToHub', () => {
  it('reads thoughts, text, two whole function calls and the final usage', async () => {
    const parts = await runStream(geminiGenerateStreamToHub({ generateId: counter() }), fixture('gemini-thinking-tools.chunks.sse'));
    expect(parts).toEqual([
      { type: 'start', id: 'rsp-G1', model: 'gemini-2.5-flash', promptUsage: { inputTokens: 120 } },
      { type: 'reasoning-delta', delta: '**Planning** I need the weather for both cities.' },
      { type: 'text-delta', delta: 'Checking both' },
      { type: 'tool-call-start', index: 0, id: 'gen_1', name: 'get_weather', signature: 'CiQB0e2Kb1' },
      { type: 'tool-call-delta', index: 0, argumentsDelta: '{"city":"Paris"}' },
      { type: 'tool-call-end', index: 0 },
      { type: 'tool-call-start', index: 1, id: 'gen_2', name: 'get_weather' },
      { type: 'tool-call-delta', index: 1, argumentsDelta: '{"city":"Rome"}' },
      { type: 'tool-call-end', index: 1 },
      {
        type: 'finish',
        finishReason: { unified: 'tool-calls', raw: 'STOP' },
        usage: { inputTokens: 120, cachedInputTokens: 64, outputTokens: 70, reasoningTokens: 40 },
      },
    ]);
  });

  it('skips a malformed chunk with a warning and reads an error chunk', async () => {
    const warnings: HubWarning[] = [];
    const parts = await runStream(geminiGenerateStreamToHub({ onWarning: (w) => warnings.push(w) }), fixture('gemini-malformed-error.chunks.sse'));
    expect(parts.map((p) => p.type)).toEqual(['start', 'text-delta', 'text-delta', 'error']);
    const error = (parts[3] as Extract<HubStreamPart, { type: 'error' }>).error;
    expect([error.status, error.kind, error.code]).toEqual([503, 'overloaded_error', 'UNAVAILABLE']);
    expect(warnings).toHaveLength(1);
  });
});

describe('hubToGeminiGenerateStream', () => {
  it('writes text chunks, a whole functionCall once its arguments are complete, then finish with usage', async () => {
    const events = await runStream(hubToGeminiGenerateStream({ requestModel: 'gemini-alias' }), [
      { type: 'start', id: 'chatcmpl-1', model: 'gpt' },
      { type: 'reasoning-delta', delta: 'hmm' },
      { type: 'text-delta', delta: 'Hi' },
      { type: 'tool-call-start', index: 0, id: 'call_1', name: 'f' },
      { type: 'tool-call-delta', index: 0, argumentsDelta: '{"a":' },
      { type: 'tool-call-delta', index: 0, argumentsDelta: '1}' },
      { type: 'tool-call-end', index: 0 },
      {
        type: 'finish',
        finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
        usage: { inputTokens: 10, cachedInputTokens: 0, cacheWriteTokens: 0, outputTokens: 7, reasoningTokens: 2 },
      },
    ]);
    expect(events.every((e) => e.event === undefined)).toBe(true);
    const json = eventJson(events) as Record<string, any>[];
    expect(json.map((c) => c.candidates[0].content.parts)).toEqual([
      [{ text: 'hmm', thought: true }],
      [{ text: 'Hi' }],
      [{ functionCall: { id: 'call_1', name: 'f', args: { a: 1 } } }],
      [{ text: '' }],
    ]);
    expect(json[3]).toEqual({
      candidates: [{ content: { role: 'model', parts: [{ text: '' }] }, finishReason: 'STOP', index: 0 }],
      usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 5, totalTokenCount: 17, thoughtsTokenCount: 2 },
      modelVersion: 'gemini-alias',
      responseId: 'chatcmpl-1',
    });
  });

  it('ends with a Google error chunk', async () => {
    const { upstreamStatusError } = await import('../../hub/hub-errors.ts');
    const events = await runStream(hubToGeminiGenerateStream({ requestModel: 'g' }), [
      { type: 'start', id: 'x', model: 'm' },
      { type: 'error', error: upstreamStatusError(429, { message: 'quota' }) },
    ]);
    expect(events).toEqual([{ data: '{"error":{"code":429,"message":"quota","status":"RESOURCE_EXHAUSTED"}}' }]);
  });
});
