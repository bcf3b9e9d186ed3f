import { describe, expect, it } from 'vitest';
import type { HubStreamPart } from '../../hub/hub-stream.ts';
import type { HubWarning } from '../../hub/hub-warnings.ts';
import { readSseFixture, runStream } from '../../../test/formats/sse-fixtures.ts';
import { converseStreamToHub, hubToConverseStream } from './bedrock-converse-stream.ts';

const fixture = (name: string) => readSseFixture(new URL(`./__fixtures__/${name}`, import.meta.url));
const ids = () => 'msg_fixed';

describe('converseStreamToHub', () => {
  it('reads reasoning with its signature, text, a streamed tool use, the stop reason and the usage of metadata', async () => {
    const parts = await runStream(converseStreamToHub({ generateId: ids }), fixture('converse-stream-tools.events.sse'));
    expect(parts).toEqual([
      { type: 'start', id: 'msg_fixed', model: '' },
      { type: 'reasoning-delta', delta: 'Two cities.' },
      { type: 'reasoning-delta', delta: '', signature: 'ErcBCkgIBhABGAIiQ', signatureFamily: 'anthropic' },
      { type: 'text-delta', delta: 'Let me' },
      { type: 'text-delta', delta: ' check.' },
      { type: 'tool-call-start', index: 0, id: 'tooluse_kZJMlvQmRJ6eAyJE5GIl7Q', name: 'get_weather' },
      { type: 'tool-call-delta', index: 0, argumentsDelta: '{"city": "Par' },
      { type: 'tool-call-delta', index: 0, argumentsDelta: 'is"}' },
      { type: 'tool-call-end', index: 0 },
      { type: 'finish', finishReason: { unified: 'tool-calls', raw: 'tool_use' }, usage: { inputTokens: 2125, cachedInputTokens: 2000, cacheWriteTokens: 100, outputTokens: 40 } },
    ]);
  });

  it('finishes a stream cut after messageStop with unknown usage, and nothing for one cut before it', async () => {
    const events = fixture('converse-stream-tools.events.sse');
    const cut = await runStream(converseStreamToHub({ generateId: ids }), events.slice(0, -1));
    expect(cut.at(-1)).toEqual({ type: 'finish', finishReason: { unified: 'tool-calls', raw: 'tool_use' }, usage: {} });
    const early = await runStream(converseStreamToHub({ generateId: ids }), events.slice(0, 5));
    expect(early.some((part) => part.type === 'finish')).toBe(false);
  });

  it('turns exception events into errors: throttling 429, model stream error 502, and skips a bad payload with a warning', async () => {
    const warnings: HubWarning[] = [];
    const parts = await runStream(converseStreamToHub({ generateId: ids, onWarning: (w) => warnings.push(w) }), [
      { event: 'messageStart', data: '{"role":"assistant"}' },
      { event: 'contentBlockDelta', data: '{"delta": not json' },
      { event: 'throttlingException', data: '{"message":"Too many requests, please wait before trying again."}' },
    ]);
    expect(parts.map((part) => part.type)).toEqual(['start', 'error']);
    const error = (parts[1] as Extract<HubStreamPart, { type: 'error' }>).error;
    expect([error.status, error.kind, error.code, error.message]).toEqual([429, 'rate_limit_error', 'ThrottlingException', 'Too many requests, please wait before trying again.']);
    expect(warnings).toHaveLength(1);
    const failed = await runStream(converseStreamToHub(), [{ event: 'modelStreamErrorException', data: '{"message":"boom","originalStatusCode":500}' }]);
    expect((failed[0] as Extract<HubStreamPart, { type: 'error' }>).error.status).toBe(502);
  });
});

describe('hubToConverseStream', () => {
  it('writes the ConverseStream sequence and reads back to the same parts', async () => {
    const parts: HubStreamPart[] = [
      { type: 'start', id: 'x', model: 'm' },
      { type: 'text-delta', delta: 'Let me' },
      { type: 'text-delta', delta: ' check.' },
      { type: 'tool-call-start', index: 0, id: 'call_1', name: 'get_weather' },
      { type: 'tool-call-delta', index: 0, argumentsDelta: '{"city":"Rome"}' },
      { type: 'tool-call-end', index: 0 },
      { type: 'finish', finishReason: { unified: 'tool-calls', raw: 'tool_calls' }, usage: { inputTokens: 10, cachedInputTokens: 4, outputTokens: 3 } },
    ];
    const events = await runStream(hubToConverseStream({ requestModel: 'm' }), parts);
    expect(events.map((event) => event.event)).toEqual(['messageStart', 'contentBlockDelta', 'contentBlockDelta', 'contentBlockStop', 'contentBlockStart', 'contentBlockDelta', 'contentBlockStop', 'messageStop', 'metadata']);
    expect(JSON.parse(events.at(-1)!.data)).toEqual({ usage: { inputTokens: 6, outputTokens: 3, totalTokens: 13, cacheReadInputTokens: 4 }, metrics: { latencyMs: 0 } });
    const back = await runStream(converseStreamToHub({ generateId: ids }), events);
    expect(back.slice(1)).toEqual([
      ...parts.slice(1, 6),
      { type: 'finish', finishReason: { unified: 'tool-calls', raw: 'tool_use' }, usage: { inputTokens: 10, cachedInputTokens: 4, outputTokens: 3 } },
    ]);
  });
});
