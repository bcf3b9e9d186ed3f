// The hot paths of translated streams (issue 16): OpenAI chunks are assembled from a once-serialised
// envelope, and Anthropic's common events (deltas, pings, block stops) are checked by hand instead of by
// zod. Both must give exactly what the general path gives: the same bytes, the same parts, the same drops.
import { describe, expect, it } from 'vitest';
import { createHubToOpenaiChatStreamMachine } from '../../src/formats/openai-chat/openai-chat-stream.ts';
import { createAnthropicMessagesStreamToHubMachine } from '../../src/formats/anthropic-messages/anthropic-messages-stream.ts';
import type { HubStreamPart } from '../../src/hub/hub-stream.ts';
import { anthropicStreamEventSchema } from '../../src/formats/anthropic-messages/anthropic-messages-schema.ts';

describe('OpenAI chat chunks from the hub', () => {
  for (const requestModel of ['gpt-4o-mini', 'model "quoted" \u2028 ünïcode']) {
    it(`are byte for byte JSON.stringify of the whole chunk (model ${JSON.stringify(requestModel)})`, () => {
      const machine = createHubToOpenaiChatStreamMachine({ requestModel, created: 1_700_000_123, includeUsage: true });
      const parts: HubStreamPart[] = [
        { type: 'start', id: 'msg_01"x', model: 'claude' },
        { type: 'text-delta', delta: 'plain' },
        { type: 'text-delta', delta: 'quotes " and \\ backslash\nnewline \u0000 \ud83d\ude00 </script>' },
        { type: 'reasoning-delta', delta: 'thinking…' },
        { type: 'tool-call-start', index: 0, id: 'toolu_1', name: 'get_weather' },
        { type: 'tool-call-delta', index: 0, argumentsDelta: '{"city":"Par' },
        { type: 'finish', finishReason: { unified: 'tool-calls', raw: 'tool_use' }, usage: { inputTokens: 3, outputTokens: 5 } },
      ];
      const data = parts.flatMap((part) => machine.push(part)).map((event) => event.data);
      expect(data.at(-1)).toBe('[DONE]');
      const chunks = data.slice(0, -2); // the usage chunk and [DONE] are built apart
      expect(chunks.length).toBe(7); // role, two texts, reasoning, tool start, tool delta, finish
      for (const text of chunks) {
        const parsed = JSON.parse(text) as { id: string; created: number; model: string; choices: unknown[] };
        expect(parsed.id).toBe('chatcmpl-msg_01"x');
        expect(parsed.model).toBe(requestModel);
        expect(text).toBe(JSON.stringify(parsed)); // same keys, same order, same escaping
      }
      expect(JSON.parse(chunks[2]!).choices[0].delta.content).toBe(parts[2]!.type === 'text-delta' ? parts[2]!.delta : '');
      expect(JSON.parse(chunks.at(-1)!).choices[0]).toEqual({ index: 0, delta: {}, logprobs: null, finish_reason: 'tool_calls' });
    });
  }
});

describe('Anthropic stream events to the hub', () => {
  const run = (events: object[]) => {
    const warnings: string[] = [];
    const machine = createAnthropicMessagesStreamToHubMachine({ onWarning: (warning) => warnings.push(warning.detail) });
    const parts = events.flatMap((event) => machine.push({ data: JSON.stringify(event) }));
    return { parts, warnings };
  };

  it('reads deltas, pings and block stops as the schema does', () => {
    const { parts, warnings } = run([
      { type: 'message_start', message: { id: 'msg_1', model: 'claude', usage: { input_tokens: 4, output_tokens: 1 } } },
      { type: 'content_block_start', index: 0, content_block: { type: 'tool_use', id: 'toolu_1', name: 'f', input: {} } },
      { type: 'ping' },
      { type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: '{"a":' } },
      { type: 'content_block_stop', index: 0 },
      { type: 'content_block_start', index: 1, content_block: { type: 'text', text: '' } },
      { type: 'content_block_delta', index: 1, delta: { type: 'text_delta', text: 'Hi', extra: true } },
      { type: 'content_block_stop', index: 1 },
      { type: 'message_delta', delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 2 } },
      { type: 'message_stop' },
    ]);
    expect(warnings).toEqual([]);
    expect(parts).toEqual([
      { type: 'start', id: 'msg_1', model: 'claude', promptUsage: { inputTokens: 4 } },
      { type: 'tool-call-start', index: 0, id: 'toolu_1', name: 'f' },
      { type: 'tool-call-delta', index: 0, argumentsDelta: '{"a":' },
      { type: 'tool-call-end', index: 0 },
      { type: 'text-delta', delta: 'Hi' },
      { type: 'finish', finishReason: { unified: 'stop', raw: 'end_turn' }, usage: expect.objectContaining({ inputTokens: 4, outputTokens: 2 }) },
    ]);
  });

  it('drops, with a warning, the malformed events the schema refuses', () => {
    const { parts, warnings } = run([
      { type: 'content_block_delta', index: '0', delta: { type: 'text_delta', text: 'a' } },
      { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: null } },
      { type: 'content_block_delta', index: 0, delta: [{ type: 'text_delta', text: 'b' }] },
      { type: 'content_block_delta', index: 0, delta: { text: 'c' } },
      { type: 'content_block_stop' },
      { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'kept' } },
    ]);
    expect(parts).toEqual([{ type: 'text-delta', delta: 'kept' }]);
    expect(warnings).toHaveLength(5);
  });

  it('accepts exactly the message_start, message_delta and message_stop events the schema accepts', () => {
    const usages: unknown[] = [
      undefined, null, {}, { input_tokens: 4, output_tokens: 1 }, { input_tokens: null, cache_read_input_tokens: 2, extra: 'x' },
      { output_tokens_details: { thinking_tokens: 3 } }, { output_tokens_details: null }, { output_tokens_details: {} },
      { input_tokens: '4' }, { output_tokens_details: { thinking_tokens: '3' } }, { output_tokens_details: [] }, [], 'usage', 5,
    ];
    const events: Record<string, unknown>[] = [
      { type: 'message_stop' },
      { type: 'message_stop', extra: 1 },
      ...usages.map((usage) => ({ type: 'message_start', message: { id: 'msg_1', model: 'claude', usage } })),
      ...usages.map((usage) => ({ type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage })),
      { type: 'message_start', message: { id: 'msg_1', model: 'claude' } },
      { type: 'message_start', message: { id: 1, model: 'claude' } },
      { type: 'message_start', message: { id: 'msg_1' } },
      { type: 'message_start', message: null },
      { type: 'message_start', message: [] },
      { type: 'message_start' },
      { type: 'message_delta', delta: {} },
      { type: 'message_delta', delta: { stop_reason: null, stop_sequence: 'END' } },
      { type: 'message_delta', delta: { stop_reason: 3 } },
      { type: 'message_delta', delta: { stop_sequence: false } },
      { type: 'message_delta', delta: null },
      { type: 'message_delta', delta: [] },
      { type: 'message_delta' },
    ];
    let accepted = 0;
    for (const event of events) {
      const expected = anthropicStreamEventSchema.safeParse(event).success;
      const { warnings } = run([event]);
      expect({ event, accepted: warnings.length === 0 }).toEqual({ event, accepted: expected });
      if (expected) accepted++;
    }
    expect(accepted).toBeGreaterThan(10);
    expect(accepted).toBeLessThan(events.length - 10);
  });
});
