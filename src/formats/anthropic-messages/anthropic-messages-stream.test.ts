import { describe, expect, it } from 'vitest';
import type { HubStreamPart } from '../../hub/hub-stream.ts';
import type { HubWarning } from '../../hub/hub-warnings.ts';
import { eventJson, eventNames, readSseFixture, runStream } from '../../../test/formats/sse-fixtures.ts';
import { anthropicMessagesStreamToHub, hubToAnthropicMessagesStream } from './anthropic-messages-stream.ts';

const fixture = (name: string) => readSseFixture(new URL(`./__fixtures__/${name}`, import.meta.url));

describe('anthropicMessagesStreamToHub', () => {
  it('reads thinking with its signature, text and two streamed tool calls', async () => {
    const parts = await runStream(anthropicMessagesStreamToHub(), fixture('anthropic-thinking-tools.events.sse'));
    expect(parts).toEqual([
      { type: 'start', promptUsage: { inputTokens: 2125, cachedInputTokens: 2000, cacheWriteTokens: 100 }, id: 'msg_01ABC', model: 'claude-sonnet-4-5-20250929' },
      { type: 'reasoning-delta', delta: 'The user wants weather' },
      { type: 'reasoning-delta', delta: ' in two cities.' },
      { type: 'reasoning-delta', delta: '', signature: 'EqQBCgIYAhIM1gbcDa9GJwZA2b3hGgxBdjrkzLoky3dl1pkiMOYds', signatureFamily: 'anthropic' },
      { type: 'text-delta', delta: 'Let me check.' },
      { type: 'tool-call-start', index: 0, id: 'toolu_01A', name: 'get_weather' },
      { type: 'tool-call-delta', index: 0, argumentsDelta: '{"city": "Par' },
      { type: 'tool-call-delta', index: 0, argumentsDelta: 'is"}' },
      { type: 'tool-call-end', index: 0 },
      { type: 'tool-call-start', index: 1, id: 'toolu_01B', name: 'get_weather' },
      { type: 'tool-call-delta', index: 1, argumentsDelta: '{"city": "Rome"}' },
      { type: 'tool-call-end', index: 1 },
      {
        type: 'finish',
        finishReason: { unified: 'tool-calls', raw: 'tool_use' },
        usage: { inputTokens: 2125, cachedInputTokens: 2000, cacheWriteTokens: 100, outputTokens: 89 },
      },
    ]);
  });

  it('skips a malformed event with a warning and reads an error event', async () => {
    const warnings: HubWarning[] = [];
    const parts = await runStream(anthropicMessagesStreamToHub({ onWarning: (w) => warnings.push(w) }), fixture('anthropic-malformed-error.events.sse'));
    expect(parts.map((p) => p.type)).toEqual(['start', 'text-delta', 'error']);
    const error = (parts[2] as Extract<HubStreamPart, { type: 'error' }>).error;
    expect([error.status, error.kind, error.message]).toEqual([529, 'overloaded_error', 'Overloaded']);
    expect(warnings).toHaveLength(1);
  });
});

describe('hubToAnthropicMessagesStream', () => {
  it('writes the exact Anthropic event sequence for reasoning, text and a tool call', async () => {
    const parts: HubStreamPart[] = [
      { type: 'start', id: 'gen-1', model: 'gemini' },
      { type: 'reasoning-delta', delta: 'hmm' },
      { type: 'reasoning-delta', delta: '', signature: 'sig1' },
      { type: 'text-delta', delta: 'Hi' },
      { type: 'text-delta', delta: ' there' },
      { type: 'tool-call-start', index: 0, id: 'call_1', name: 'f' },
      { type: 'tool-call-delta', index: 0, argumentsDelta: '{"a":' },
      { type: 'tool-call-delta', index: 0, argumentsDelta: '1}' },
      { type: 'tool-call-end', index: 0 },
      {
        type: 'finish',
        finishReason: { unified: 'tool-calls', raw: 'STOP' },
        usage: { inputTokens: 50, cachedInputTokens: 20, cacheWriteTokens: 0, outputTokens: 9, reasoningTokens: 2 },
      },
    ];
    const events = await runStream(hubToAnthropicMessagesStream({ requestModel: 'claude-alias' }), parts);
    expect(eventNames(events)).toEqual([
      'message_start',
      'content_block_start', 'ping', 'content_block_delta', 'content_block_delta', 'content_block_stop',
      'content_block_start', 'content_block_delta', 'content_block_delta', 'content_block_stop',
      'content_block_start', 'content_block_delta', 'content_block_delta', 'content_block_stop',
      'message_delta', 'message_stop',
    ]);
    const json = eventJson(events) as Record<string, any>[];
    expect(json.map((e) => e.type)).toEqual(eventNames(events));
    expect(json[0]!.message).toMatchObject({ id: 'msg_gen-1', model: 'claude-alias', role: 'assistant', content: [] });
    expect(json[1]).toEqual({ type: 'content_block_start', index: 0, content_block: { type: 'thinking', thinking: '', signature: '' } });
    expect(json[4]).toEqual({ type: 'content_block_delta', index: 0, delta: { type: 'signature_delta', signature: 'sig1' } });
    expect(json[7]).toEqual({ type: 'content_block_delta', index: 1, delta: { type: 'text_delta', text: 'Hi' } });
    expect(json[10]).toEqual({ type: 'content_block_start', index: 2, content_block: { type: 'tool_use', id: 'call_1', name: 'f', input: {} } });
    expect(json[12]).toEqual({ type: 'content_block_delta', index: 2, delta: { type: 'input_json_delta', partial_json: '1}' } });
    expect(json[14]).toEqual({
      type: 'message_delta',
      delta: { stop_reason: 'tool_use', stop_sequence: null },
      usage: { input_tokens: 30, output_tokens: 9, cache_creation_input_tokens: 0, cache_read_input_tokens: 20 },
    });
  });

  it('writes OpenAI\'s unsigned reasoning and Gemini\'s signed thoughts as thinking blocks with marked signatures', async () => {
    const events = await runStream(hubToAnthropicMessagesStream({ requestModel: 'c' }), [
      { type: 'start', id: 'x', model: 'm' },
      { type: 'reasoning-delta', delta: 'Plan from o-series.' },
      { type: 'text-delta', delta: 'Hi' },
      { type: 'reasoning-delta', delta: 'A Gemini thought.', signature: 'R2VtaW5p', signatureFamily: 'google' },
      { type: 'reasoning-delta', delta: 'Claude thinking.' },
      { type: 'reasoning-delta', delta: '', signature: 'Q2xhdWRl', signatureFamily: 'anthropic' },
      { type: 'finish', finishReason: { unified: 'stop', raw: 'stop' }, usage: { inputTokens: 1, outputTokens: 1 } },
    ]);
    const signatures = (eventJson(events) as Record<string, any>[]).filter((e) => e.delta?.type === 'signature_delta').map((e) => [e.index, e.delta.signature]);
    // A client sending these back to Claude gets Claude's own through and the others left out (hub-signatures.ts).
    expect(signatures).toEqual([[0, 'gwsig:unsigned:'], [2, 'gwsig:google:R2VtaW5p'], [3, 'Q2xhdWRl']]);
  });

  it('ends with an error event when the stream fails', async () => {
    const { upstreamStatusError } = await import('../../hub/hub-errors.ts');
    const events = await runStream(hubToAnthropicMessagesStream({ requestModel: 'c' }), [
      { type: 'start', id: 'x', model: 'm' },
      { type: 'error', error: upstreamStatusError(429, { message: 'slow down' }) },
    ]);
    expect(eventNames(events)).toEqual(['message_start', 'error']);
    expect(JSON.parse(events[1]!.data)).toEqual({ type: 'error', error: { type: 'rate_limit_error', message: 'slow down' } });
  });
});
