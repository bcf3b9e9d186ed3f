import { accumulateResponse } from 'openai/lib/responses/ResponseAccumulator';
import type { Response, ResponseStreamEvent } from 'openai/resources/responses/responses';
import { describe, expect, it } from 'vitest';
import { upstreamStatusError } from '../../hub/hub-errors.ts';
import type { HubStreamPart } from '../../hub/hub-stream.ts';
import { runStream } from '../../../test/formats/sse-fixtures.ts';
import { expectedResponse, hubAnswer } from './__fixtures__/responses-hub-answer.ts';
import { unsealed } from './__fixtures__/unsealed.ts';
import { hubToOpenaiResponsesResponse } from './openai-responses-response.ts';
import { createHubToOpenaiResponsesStreamMachine, hubToOpenaiResponsesStream } from './openai-responses-stream.ts';

/** A request that asks for reasoning items' encrypted_content (thinking signatures, redacted blocks). */
const SEALED = { include: ['reasoning.encrypted_content'] };

/** hubAnswer as a stream: thinking with a signature, text in two deltas, two interleaved parallel calls. */
const parts: HubStreamPart[] = [
  { type: 'start', id: 'msg_01ABC', model: 'claude-x' },
  { type: 'reasoning-delta', delta: 'Weather and time,' },
  { type: 'reasoning-delta', delta: ' both.' },
  { type: 'reasoning-delta', delta: '', signature: 'sig-1' },
  { type: 'text-delta', delta: 'Checking ' },
  { type: 'text-delta', delta: 'both.' },
  { type: 'tool-call-start', index: 0, id: 'toolu_1', name: 'get_weather' },
  { type: 'tool-call-start', index: 1, id: 'toolu_2', name: 'get_time' },
  { type: 'tool-call-delta', index: 0, argumentsDelta: '{"city":' },
  { type: 'tool-call-delta', index: 1, argumentsDelta: '{"tz":"CET"}' },
  { type: 'tool-call-delta', index: 0, argumentsDelta: '"Paris"}' },
  { type: 'tool-call-end', index: 1 },
  { type: 'tool-call-end', index: 0 },
  { type: 'finish', finishReason: hubAnswer.finishReason, usage: hubAnswer.usage },
];

const json = (events: { data: string }[]) => events.map((e) => JSON.parse(e.data) as Record<string, any>);

describe('hubToOpenaiResponsesStream', () => {
  it('writes the exact event sequence with increasing sequence numbers', async () => {
    const events = await runStream(hubToOpenaiResponsesStream({ requestModel: 'alias', created: 9 }), parts);
    expect(events.map((e) => e.event)).toEqual([
      'response.created',
      'response.in_progress',
      'response.output_item.added', // reasoning, output 0
      'response.reasoning_summary_part.added',
      'response.reasoning_summary_text.delta',
      'response.reasoning_summary_text.delta',
      'response.reasoning_summary_text.done',
      'response.reasoning_summary_part.done',
      'response.output_item.done',
      'response.output_item.added', // message, output 1
      'response.content_part.added',
      'response.output_text.delta',
      'response.output_text.delta',
      'response.output_text.done',
      'response.content_part.done',
      'response.output_item.done',
      'response.output_item.added', // function_call get_weather, output 2
      'response.output_item.added', // function_call get_time, output 3
      'response.function_call_arguments.delta',
      'response.function_call_arguments.delta',
      'response.function_call_arguments.delta',
      'response.function_call_arguments.done',
      'response.output_item.done',
      'response.function_call_arguments.done',
      'response.output_item.done',
      'response.completed',
    ]);
    const data = json(events);
    expect(data.map((d) => d.type)).toEqual(events.map((e) => e.event));
    expect(data.map((d) => d.sequence_number)).toEqual(events.map((_, i) => i));

    expect(data[0]).toEqual({
      type: 'response.created',
      response: { ...expectedResponse, status: 'in_progress', completed_at: null, output: [], usage: null },
      sequence_number: 0,
    });
    expect(data[2]).toEqual({ type: 'response.output_item.added', output_index: 0, item: { id: 'rs_msg_01ABC_0', type: 'reasoning', summary: [] }, sequence_number: 2 });
    expect(data[3]).toEqual({
      type: 'response.reasoning_summary_part.added',
      item_id: 'rs_msg_01ABC_0',
      output_index: 0,
      summary_index: 0,
      part: { type: 'summary_text', text: '' },
      sequence_number: 3,
    });
    expect(data[6]).toEqual({
      type: 'response.reasoning_summary_text.done',
      item_id: 'rs_msg_01ABC_0',
      output_index: 0,
      summary_index: 0,
      text: 'Weather and time, both.',
      sequence_number: 6,
    });
    expect(data[9]).toEqual({
      type: 'response.output_item.added',
      output_index: 1,
      item: { id: 'msg_msg_01ABC_1', type: 'message', status: 'in_progress', role: 'assistant', content: [] },
      sequence_number: 9,
    });
    expect(data[10]).toEqual({
      type: 'response.content_part.added',
      item_id: 'msg_msg_01ABC_1',
      output_index: 1,
      content_index: 0,
      part: { type: 'output_text', annotations: [], logprobs: [], text: '' },
      sequence_number: 10,
    });
    expect(data[11]).toEqual({
      type: 'response.output_text.delta',
      item_id: 'msg_msg_01ABC_1',
      output_index: 1,
      content_index: 0,
      delta: 'Checking ',
      logprobs: [],
      sequence_number: 11,
    });
    expect(data[17]).toEqual({
      type: 'response.output_item.added',
      output_index: 3,
      item: { id: 'fc_msg_01ABC_3', type: 'function_call', status: 'in_progress', arguments: '', call_id: 'toolu_2', name: 'get_time' },
      sequence_number: 17,
    });
    expect(data[19]).toEqual({ type: 'response.function_call_arguments.delta', item_id: 'fc_msg_01ABC_3', output_index: 3, delta: '{"tz":"CET"}', sequence_number: 19 });
    expect(data[21]).toEqual({
      type: 'response.function_call_arguments.done',
      item_id: 'fc_msg_01ABC_3',
      output_index: 3,
      name: 'get_time',
      arguments: '{"tz":"CET"}',
      sequence_number: 21,
    });
    expect(data[23]).toEqual({
      type: 'response.function_call_arguments.done',
      item_id: 'fc_msg_01ABC_2',
      output_index: 2,
      name: 'get_weather',
      arguments: '{"city":"Paris"}',
      sequence_number: 23,
    });
  });

  it('leaves encrypted_content out of every event unless the request includes it', async () => {
    const data = json(await runStream(hubToOpenaiResponsesStream({ requestModel: 'alias', created: 9 }), parts));
    expect(JSON.stringify(data)).not.toContain('encrypted_content');
    expect(data[data.length - 1]!.response).toEqual(hubToOpenaiResponsesResponse(hubAnswer, { requestModel: 'alias', created: 9 }));
  });

  it('ends with the same Response the non-streamed answer gets, and deltas add up to it', async () => {
    const data = json(await runStream(hubToOpenaiResponsesStream({ requestModel: 'alias', created: 9, requestBody: SEALED }), parts));
    const completed = data[data.length - 1]!;
    expect(unsealed(completed.response)).toEqual(expectedResponse);
    expect(unsealed(completed.response)).toEqual(unsealed(hubToOpenaiResponsesResponse(hubAnswer, { requestModel: 'alias', created: 9, requestBody: SEALED })));
    const deltas = (type: string, outputIndex: number) => data.filter((d) => d.type === type && d.output_index === outputIndex).map((d) => d.delta).join('');
    expect(deltas('response.output_text.delta', 1)).toBe('Checking both.');
    expect(deltas('response.reasoning_summary_text.delta', 0)).toBe('Weather and time, both.');
    expect(deltas('response.function_call_arguments.delta', 2)).toBe('{"city":"Paris"}');
    expect(deltas('response.function_call_arguments.delta', 3)).toBe('{"tz":"CET"}');
    // Each item's done event carries the item as it ends up in the final response.
    for (const done of data.filter((d) => d.type === 'response.output_item.done')) {
      expect(unsealed(done.item)).toEqual(expectedResponse.output[done.output_index]);
    }
  });

  it("is accumulated by the openai SDK into the final response's output", async () => {
    const data = json(await runStream(hubToOpenaiResponsesStream({ requestModel: 'alias', created: 9, requestBody: SEALED }), parts)) as unknown as ResponseStreamEvent[];
    let snapshot: Response | undefined;
    for (const event of data.slice(0, -1)) snapshot = accumulateResponse(event, snapshot);
    expect(unsealed(snapshot?.output)).toEqual(expectedResponse.output);
    expect(snapshot?.output_text).toBe('Checking both.');
    const final = accumulateResponse(data[data.length - 1]!, snapshot);
    expect(final.status).toBe('completed');
    expect(final.usage).toEqual(expectedResponse.usage);
  });

  it('ends a cut answer with response.incomplete and an incomplete message', async () => {
    const data = json(
      await runStream(hubToOpenaiResponsesStream({ requestModel: 'alias', created: 9 }), [
        { type: 'start', id: 'resp_L', model: 'm' },
        { type: 'text-delta', delta: 'Half' },
        { type: 'finish', finishReason: { unified: 'length', raw: 'max_tokens' }, usage: { inputTokens: 3, cachedInputTokens: 0, cacheWriteTokens: 0, outputTokens: 4, reasoningTokens: 0 } },
      ]),
    );
    expect(data.map((d) => d.type)).toEqual([
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.content_part.added',
      'response.output_text.delta',
      'response.output_text.done',
      'response.content_part.done',
      'response.output_item.done',
      'response.incomplete',
    ]);
    const last = data[8]!.response;
    expect([last.id, last.status, last.incomplete_details]).toEqual(['resp_L', 'incomplete', { reason: 'max_output_tokens' }]);
    expect(last.output).toEqual([
      { id: 'msg_L_0', type: 'message', status: 'incomplete', role: 'assistant', content: [{ type: 'output_text', annotations: [], logprobs: [], text: 'Half' }] },
    ]);
    expect(last).toEqual(
      hubToOpenaiResponsesResponse(
        { id: 'resp_L', model: 'm', content: [{ type: 'text', text: 'Half' }], finishReason: { unified: 'length', raw: 'max_tokens' }, usage: { inputTokens: 3, cachedInputTokens: 0, cacheWriteTokens: 0, outputTokens: 4, reasoningTokens: 0 } },
        { requestModel: 'alias', created: 9 },
      ),
    );
  });

  it('writes a redacted block as a sealed reasoning item without summary events', () => {
    const machine = createHubToOpenaiResponsesStreamMachine({ requestModel: 'a', created: 1, requestBody: SEALED });
    machine.push({ type: 'start', id: 'r', model: 'm' });
    const events = machine.push({ type: 'reasoning-delta', delta: '', redactedData: 'ENC' });
    expect(unsealed(json(events))).toEqual([
      { type: 'response.output_item.added', output_index: 0, item: { id: 'rs_r_0', type: 'reasoning', summary: [] }, sequence_number: 2 },
      { type: 'response.output_item.done', output_index: 0, item: { id: 'rs_r_0', type: 'reasoning', summary: [], encrypted_content: 'redacted:ENC' }, sequence_number: 3 },
    ]);
  });

  it('opens no item for an empty reasoning delta', () => {
    const machine = createHubToOpenaiResponsesStreamMachine({ requestModel: 'a', created: 1 });
    machine.push({ type: 'start', id: 'r', model: 'm' });
    expect(machine.push({ type: 'reasoning-delta', delta: '' })).toEqual([]);
    expect(json(machine.push({ type: 'text-delta', delta: 'x' })).map((d) => [d.type, d.output_index])).toEqual([
      ['response.output_item.added', 0],
      ['response.content_part.added', 0],
      ['response.output_text.delta', 0],
    ]);
  });

  it('ends a failed stream with an error event carrying the next sequence number', async () => {
    const events = await runStream(hubToOpenaiResponsesStream({ requestModel: 'alias', created: 9 }), [
      { type: 'start', id: 'a', model: 'm' },
      { type: 'text-delta', delta: 'x' },
      { type: 'error', error: upstreamStatusError(529, { message: 'Overloaded' }) },
      { type: 'text-delta', delta: 'ignored' },
    ]);
    expect(events).toHaveLength(7);
    const failed = JSON.parse(events[5]!.data) as { type: string; response: Record<string, unknown>; sequence_number: number };
    expect(failed).toMatchObject({ type: 'response.failed', sequence_number: 5, response: { status: 'failed', error: { code: 'overloaded_error', message: 'Overloaded' }, completed_at: null, usage: null } });
    expect(events[6]).toEqual({
      event: 'error',
      data: JSON.stringify({ type: 'error', code: 'overloaded_error', message: 'Overloaded', param: null, sequence_number: 6 }),
    });
  });

  it("echoes the request's settings in response.created and the final response", async () => {
    const requestBody = { model: 'alias', input: 'x', temperature: 0.2, tools: [{ type: 'function', name: 'get_weather', parameters: {} }], tool_choice: 'required' };
    const data = json(await runStream(hubToOpenaiResponsesStream({ requestModel: 'alias', created: 9, requestBody }), parts));
    for (const event of [data[0]!, data.at(-1)!]) {
      expect(event.response).toMatchObject({ temperature: 0.2, top_p: 1, tool_choice: 'required', tools: [{ type: 'function', name: 'get_weather', description: null, parameters: {}, strict: null }] });
    }
  });

  it('a failed response holds what was delivered, its open items marked incomplete', () => {
    const machine = createHubToOpenaiResponsesStreamMachine({ requestModel: 'a', created: 1 });
    machine.push({ type: 'start', id: 'r', model: 'm' });
    machine.push({ type: 'text-delta', delta: 'Half an ans' });
    machine.push({ type: 'tool-call-start', index: 0, id: 'call_1', name: 'f' });
    machine.push({ type: 'tool-call-delta', index: 0, argumentsDelta: '{"a":' });
    const [failed, error] = json(machine.push({ type: 'error', error: upstreamStatusError(502, { message: 'gone' }) }));
    expect(failed!.type).toBe('response.failed');
    expect(failed!.response.output).toEqual([
      // The message was closed when the call started; only the call was still open.
      { id: 'msg_r_0', type: 'message', status: 'completed', role: 'assistant', content: [{ type: 'output_text', annotations: [], logprobs: [], text: 'Half an ans' }] },
      { id: 'fc_r_1', type: 'function_call', status: 'incomplete', arguments: '{"a":', call_id: 'call_1', name: 'f' },
    ]);
    expect(error).toMatchObject({ type: 'error', message: 'gone', sequence_number: failed!.sequence_number + 1 });
  });
});
