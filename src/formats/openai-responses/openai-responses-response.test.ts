import { describe, expect, it } from 'vitest';
import { readJsonFixture } from '../../../test/formats/sse-fixtures.ts';
import { expectedResponse, hubAnswer } from './__fixtures__/responses-hub-answer.ts';
import { hubToOpenaiResponsesResponse, openaiResponsesResponseToHub } from './openai-responses-response.ts';
import { responseWithoutEncryptedReasoning } from './openai-responses-include.ts';
import { unsealed } from './__fixtures__/unsealed.ts';

/** A request that asks for reasoning items' encrypted_content (thinking signatures, redacted blocks). */
const SEALED = { include: ['reasoning.encrypted_content'] };

const fixture = (name: string) => readJsonFixture(new URL(`./__fixtures__/${name}`, import.meta.url));

describe('openaiResponsesResponseToHub', () => {
  it('reads reasoning summaries, text, parallel calls and usage; skips hosted-tool items', () => {
    expect(openaiResponsesResponseToHub(fixture('responses-response-tools.json'))).toEqual({
      id: 'resp_R1',
      model: 'gpt-5-2025-08-07',
      content: [
        { type: 'reasoning', text: 'Two lookups.\n\nRun them in parallel.' },
        { type: 'text', text: 'Checking both.' },
        { type: 'tool-call', id: 'call_x', name: 'get_weather', argumentsJson: '{"city":"Paris"}' },
        { type: 'tool-call', id: 'call_y', name: 'get_time', argumentsJson: '{"tz":"CET"}' },
      ],
      finishReason: { unified: 'tool-calls', raw: 'completed' },
      usage: { inputTokens: 2048, cachedInputTokens: 1536, outputTokens: 300, reasoningTokens: 256 },
    });
  });

  it('reads an incomplete response as a length cut', () => {
    const hub = openaiResponsesResponseToHub({
      id: 'resp_2',
      model: 'm',
      status: 'incomplete',
      incomplete_details: { reason: 'max_output_tokens' },
      output: [{ type: 'message', role: 'assistant', status: 'incomplete', content: [{ type: 'output_text', text: 'Half', annotations: [] }] }],
    });
    expect(hub.finishReason).toEqual({ unified: 'length', raw: 'max_output_tokens' });
    expect(hub.content).toEqual([{ type: 'text', text: 'Half' }]);
    // No usage on the wire: every count is unknown (the relay counts them), not zero.
    expect(hub.usage).toEqual({});
  });

  it('refuses a body without output as a 502', () => {
    expect(() => openaiResponsesResponseToHub({ id: 'x', model: 'y' })).toThrowError(
      expect.objectContaining({ status: 502, gatewayCode: 'GW_ERR_UPSTREAM_BAD_RESPONSE' }),
    );
  });
});

describe('hubToOpenaiResponsesResponse', () => {
  it('writes a complete Response naming the requested model', () => {
    expect(unsealed(hubToOpenaiResponsesResponse(hubAnswer, { requestModel: 'alias', created: 9, requestBody: SEALED }))).toEqual(expectedResponse);
  });

  it('leaves reasoning items\' encrypted_content out unless the request includes it, as OpenAI does', () => {
    const plain = hubToOpenaiResponsesResponse(hubAnswer, { requestModel: 'alias', created: 9 });
    expect(plain).toEqual(responseWithoutEncryptedReasoning(expectedResponse));
    expect(JSON.stringify(plain)).not.toContain('encrypted_content');
    expect(JSON.stringify(expectedResponse)).toContain('encrypted_content');
  });

  it('marks a length cut incomplete, the last message too, and carries redacted blocks and Gemini signatures', () => {
    const out = hubToOpenaiResponsesResponse(
      {
        id: 'resp_G',
        model: 'gemini',
        content: [
          { type: 'reasoning', text: '', redactedData: 'ENC' },
          { type: 'tool-call', id: 'c1', name: 'f', argumentsJson: '{}', signature: 'ts' },
          { type: 'text', text: 'Cut' },
        ],
        finishReason: { unified: 'length', raw: 'MAX_TOKENS' },
        usage: { inputTokens: 1, cachedInputTokens: 0, cacheWriteTokens: 0, outputTokens: 2, reasoningTokens: 0 },
      },
      { requestModel: 'g', created: 1, requestBody: SEALED },
    ) as Record<string, any>;
    expect([out.id, out.status, out.incomplete_details]).toEqual(['resp_G', 'incomplete', { reason: 'max_output_tokens' }]);
    expect(unsealed(out.output)).toEqual([
      { id: 'rs_G_0', type: 'reasoning', summary: [], encrypted_content: 'redacted:ENC' },
      { id: 'fc_G_1', type: 'function_call', status: 'completed', arguments: '{}', call_id: `c1__ts_${Buffer.from('ts').toString('base64url')}`, name: 'f' },
      { id: 'msg_G_2', type: 'message', status: 'incomplete', role: 'assistant', content: [{ type: 'output_text', annotations: [], logprobs: [], text: 'Cut' }] },
    ]);
  });

  it('round-trips through the Responses reader', () => {
    const back = openaiResponsesResponseToHub(hubToOpenaiResponsesResponse(hubAnswer, { requestModel: 'alias', created: 9 }));
    expect(back.content).toEqual([
      { type: 'reasoning', text: 'Weather and time, both.' },
      { type: 'text', text: 'Checking both.' },
      ...hubAnswer.content.slice(3),
    ]);
    expect(back.usage).toEqual(hubAnswer.usage);
    expect(back.finishReason).toEqual({ unified: 'tool-calls', raw: 'completed' });
  });
});

describe('the echo of the request', () => {
  it("repeats the request's own settings in the Response", () => {
    const tools = [{ type: 'function', name: 'get_weather', parameters: { type: 'object', properties: {} } }];
    const requestBody = {
      model: 'alias', input: 'hi', instructions: 'Be brief.', tools, tool_choice: 'required', temperature: 0.3, top_p: 0.9,
      max_output_tokens: 50, max_tool_calls: 2, metadata: { run: '7' }, parallel_tool_calls: false, top_logprobs: 3,
      text: { format: { type: 'json_object' } }, reasoning: { effort: 'low', summary: 'auto' }, truncation: 'auto', user: 'u-1',
      store: false, safety_identifier: 'safe-1', prompt_cache_key: 'pck', presence_penalty: 0.5, frequency_penalty: -0.5,
    };
    const out = hubToOpenaiResponsesResponse(hubAnswer, { requestModel: 'alias', created: 9, requestBody });
    expect(out).toMatchObject({
      instructions: 'Be brief.', tool_choice: 'required', temperature: 0.3, top_p: 0.9, max_output_tokens: 50, max_tool_calls: 2,
      metadata: { run: '7' }, parallel_tool_calls: false, top_logprobs: 3, text: { format: { type: 'json_object' }, verbosity: 'medium' },
      reasoning: { effort: 'low', summary: 'auto' }, truncation: 'auto', user: 'u-1', store: false, safety_identifier: 'safe-1',
      prompt_cache_key: 'pck', presence_penalty: 0.5, frequency_penalty: -0.5, service_tier: 'default', background: false,
    });
    expect(out.tools).toEqual([{ type: 'function', name: 'get_weather', description: null, parameters: { type: 'object', properties: {} }, strict: null }]);
    expect(Object.keys(out)[0]).toBe('id');
  });
});
