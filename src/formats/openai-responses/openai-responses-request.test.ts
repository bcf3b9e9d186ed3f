import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../gateway-errors.ts';
import type { HubRequest } from '../../hub/hub-request.ts';
import { readJsonFixture } from '../../../test/formats/sse-fixtures.ts';
import { hubToOpenaiResponsesRequest, openaiResponsesRequestToHub } from './openai-responses-request.ts';
import { sealReasoning } from './openai-responses-reasoning-seal.ts';

const fixture = (name: string) => readJsonFixture(new URL(`./__fixtures__/${name}`, import.meta.url));

/** The full request as a client sends it back: its reasoning item's encrypted_content sealed by the gateway. */
function fullRequest(): Record<string, unknown> {
  const body = fixture('responses-request-full.json') as { input: Array<Record<string, unknown>> };
  for (const item of body.input) if (item.type === 'reasoning') item.encrypted_content = sealReasoning({ signature: String(item.encrypted_content) });
  return body;
}

function invalid(body: unknown): GatewayError {
  try {
    openaiResponsesRequestToHub(body);
  } catch (error) {
    expect(error).toBeInstanceOf(GatewayError);
    expect((error as GatewayError).status).toBe(400);
    return error as GatewayError;
  }
  throw new Error('expected a 400');
}

describe('openaiResponsesRequestToHub', () => {
  it('maps every field of a full request', () => {
    const { request, warnings } = openaiResponsesRequestToHub(fullRequest());
    expect(warnings).toEqual([]);
    expect(request.model).toBe('gpt-5');
    expect(request.system).toEqual([
      { type: 'text', text: 'You are terse.' },
      { type: 'text', text: 'Answer in English.' },
    ]);
    expect(request.messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'What is in this image, and the weather in Paris?' },
          { type: 'image', source: { kind: 'base64', data: 'iVBORw0KGgo=', mediaType: 'image/png' }, detail: 'low' },
          { type: 'image', source: { kind: 'url', url: 'https://example.com/cat.jpg' }, detail: 'auto' },
        ],
      },
      {
        role: 'assistant',
        content: [
          { type: 'reasoning', text: 'Need weather and time.', signature: 'sig-abc' },
          { type: 'tool-call', id: 'call_1', name: 'get_weather', argumentsJson: '{"city":"Paris"}' },
          { type: 'tool-call', id: 'call_2', name: 'get_time', argumentsJson: '{"tz":"CET"}' },
        ],
      },
      {
        role: 'tool',
        content: [
          { type: 'tool-result', toolCallId: 'call_1', name: 'get_weather', content: '18C, cloudy', isError: false },
          { type: 'tool-result', toolCallId: 'call_2', name: 'get_time', content: [{ type: 'text', text: '14:05' }], isError: false },
        ],
      },
      { role: 'assistant', content: [{ type: 'text', text: '18C and 14:05.' }] },
      { role: 'user', content: [{ type: 'text', text: 'Thanks. Answer in JSON.' }] },
    ]);
    expect(request.tools).toEqual([
      {
        name: 'get_weather',
        description: 'Weather for a city',
        parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
        strict: true,
      },
      { name: 'get_time', parameters: { type: 'object', properties: { tz: { type: 'string' } } } },
    ]);
    expect(request.toolChoice).toBe('auto');
    expect(request.parallelToolCalls).toBe(true);
    expect(request.maxOutputTokens).toBe(500);
    expect(request.temperature).toBe(0.2);
    expect(request.topP).toBe(0.9);
    expect(request.stopSequences).toEqual([]);
    expect(request.responseFormat).toEqual({
      type: 'json_schema',
      name: 'answer',
      schema: { type: 'object', properties: { weather: { type: 'string' } } },
      strict: true,
    });
    expect(request.reasoning).toEqual({ effort: 'medium', includeThoughts: true });
    expect(request.stream).toBe(true);
    expect(request.user).toBe('user-42');
    expect(request.metadata).toEqual({ trace: 't-1' });
    expect(request.extensions).toEqual({
      'openai-responses': { store: false, include: ['reasoning.encrypted_content'], text: { verbosity: 'low' } },
    });
  });

  it('reads a plain string input as one user message', () => {
    const { request } = openaiResponsesRequestToHub({ model: 'm', input: 'Hello', text: { format: { type: 'json_object' } } });
    expect(request.messages).toEqual([{ role: 'user', content: [{ type: 'text', text: 'Hello' }] }]);
    expect(request.system).toEqual([]);
    expect(request.responseFormat).toEqual({ type: 'json_object' });
    expect(request.extensions).toEqual({});
  });

  it('refuses previous_response_id, conversation and stored prompts, naming the field', () => {
    const previous = invalid({ model: 'm', input: 'hi', previous_response_id: 'resp_1' });
    expect(previous.param).toBe('previous_response_id');
    expect(previous.message).toContain('previous_response_id needs an OpenAI-type channel');
    // The gateway keeps responses itself now: only one an OpenAI channel answered can get here.
    expect(previous.message).toContain('answered and is kept by an OpenAI channel');
    expect(invalid({ model: 'm', input: 'hi', conversation: 'conv_1' }).param).toBe('conversation');
    expect(invalid({ model: 'm', input: 'hi', prompt: { id: 'pmpt_1' } }).param).toBe('prompt');
    expect(invalid({ model: 'm', input: 'hi', background: true }).param).toBe('background');
  });

  it('refuses hosted tools by name, and carries hosted web search as the hub\'s, its OpenAI settings named as dropped', () => {
    const { request, warnings } = openaiResponsesRequestToHub({ model: 'm', input: 'hi', tools: [{ type: 'function', name: 'f', parameters: {} }, { type: 'web_search', external_web_access: false }] });
    expect(request.tools.map((t) => t.name)).toEqual(['f']);
    expect(request.webTools).toEqual(['web-search']);
    expect(warnings).toEqual([expect.objectContaining({ type: 'dropped', feature: 'tools[1].external_web_access' })]);
    expect(openaiResponsesRequestToHub({ model: 'm', input: 'hi', tools: [{ type: 'web_search' }] }).warnings).toEqual([]);
    const error = invalid({ model: 'm', input: 'hi', tools: [{ type: 'image_generation' }] });
    expect(error.param).toBe('tools[0].type');
    expect(error.message).toContain("'image_generation' tools run on OpenAI's servers");
    expect(invalid({ model: 'm', input: 'hi', tools: [{ type: 'file_search', vector_store_ids: ['vs'] }] }).param).toBe('tools[0].type');
    expect(invalid({ model: 'm', input: 'hi', tools: [{ type: 'computer_use_preview' }] }).param).toBe('tools[0].type');
    expect(invalid({ model: 'm', input: 'hi', tool_choice: { type: 'web_search_preview' } }).param).toBe('tool_choice.type');
    expect(invalid({ model: 'm', input: 'hi', tool_choice: { type: 'function' } }).param).toBe('tool_choice.name');
  });

  it('names the field at fault in a 400', () => {
    expect(invalid({ model: 'm', input: 'hi', temperature: 2.5 }).param).toBe('temperature');
    expect(invalid({ model: 'm', input: 'hi', top_p: 1.5 }).param).toBe('top_p');
    expect(invalid({ input: 'hi' }).param).toBe('model');
    expect(invalid({ model: 'm' }).param).toBe('input');
    expect(invalid({ model: 'm', input: [{ type: 'function_call', name: 'f', arguments: '{}' }] }).param).toBe('input[0].call_id');
    expect(invalid({ model: 'm', input: [{ role: 'user', content: [{ type: 'input_file', file_id: 'f' }] }] }).param).toBe('input[0].content[0].file_id');
    expect(invalid({ model: 'm', input: [{ role: 'user', content: [{ type: 'input_audio', input_audio: {} }] }] }).param).toBe('input[0].content[0]');
    expect(invalid({ model: 'm', input: [{ type: 'computer_call', id: 'cu' }] }).param).toBe('input[0].type');
    expect(invalid({ model: 'm', input: [{ type: 'item_reference', id: 'msg_1' }] }).param).toBe('input[0].type');
  });

  it('reads tool choices, including allowed_tools as a narrowed tool list', () => {
    const tools = [
      { type: 'function', name: 'a', parameters: { type: 'object' } },
      { type: 'function', name: 'b', parameters: { type: 'object' } },
    ];
    const named = openaiResponsesRequestToHub({ model: 'm', input: 'x', tools, tool_choice: { type: 'function', name: 'b' } }).request;
    expect(named.toolChoice).toEqual({ type: 'tool', name: 'b' });
    const allowed = openaiResponsesRequestToHub({
      model: 'm',
      input: 'x',
      tools,
      tool_choice: { type: 'allowed_tools', mode: 'required', tools: [{ type: 'function', name: 'a' }] },
    }).request;
    expect(allowed.toolChoice).toBe('required');
    expect(allowed.tools.map((t) => t.name)).toEqual(['a']);
  });

  it('reads reasoning effort none as disabled and minimal as low with a warning', () => {
    expect(openaiResponsesRequestToHub({ model: 'm', input: 'x', reasoning: { effort: 'none' } }).request.reasoning).toEqual({ disabled: true });
    const minimal = openaiResponsesRequestToHub({ model: 'm', input: 'x', reasoning: { effort: 'minimal' } });
    expect(minimal.request.reasoning).toEqual({ effort: 'low' });
    expect(minimal.warnings.map((w) => [w.type, w.feature])).toEqual([['unsupported', 'reasoning.effort']]);
  });

  it('restores a redacted block and a Gemini signature carried in a call id', () => {
    const { request } = openaiResponsesRequestToHub({
      model: 'm',
      input: [
        { role: 'user', content: 'hi' },
        { type: 'reasoning', id: 'rs_x', summary: [], encrypted_content: sealReasoning({ redactedData: 'ENC' }) },
        { type: 'function_call', call_id: `call_9__ts_${Buffer.from('thought-sig').toString('base64url')}`, name: 'f', arguments: '{}' },
        { type: 'function_call_output', call_id: `call_9__ts_${Buffer.from('thought-sig').toString('base64url')}`, output: 'ok' },
      ],
    });
    expect(request.messages.slice(1)).toEqual([
      {
        role: 'assistant',
        content: [
          { type: 'reasoning', text: '', redactedData: 'ENC' },
          { type: 'tool-call', id: 'call_9', name: 'f', argumentsJson: '{}', signature: 'thought-sig' },
        ],
      },
      { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'call_9', name: 'f', content: 'ok', isError: false }] },
    ]);
  });
});

describe('hubToOpenaiResponsesRequest', () => {
  it('writes the full fixture back as an equivalent Responses body', () => {
    const { request } = openaiResponsesRequestToHub(fullRequest());
    const { body, warnings } = hubToOpenaiResponsesRequest(request, 'gpt-5-2025-08-07');
    expect(warnings.map((w) => [w.type, w.feature])).toEqual([['dropped', 'messages[1].reasoning']]);
    expect(body).toEqual({
      model: 'gpt-5-2025-08-07',
      instructions: 'You are terse.\n\nAnswer in English.',
      input: [
        {
          role: 'user',
          content: [
            { type: 'input_text', text: 'What is in this image, and the weather in Paris?' },
            { type: 'input_image', image_url: 'data:image/png;base64,iVBORw0KGgo=', detail: 'low' },
            { type: 'input_image', image_url: 'https://example.com/cat.jpg', detail: 'auto' },
          ],
        },
        { type: 'function_call', call_id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}' },
        { type: 'function_call', call_id: 'call_2', name: 'get_time', arguments: '{"tz":"CET"}' },
        { type: 'function_call_output', call_id: 'call_1', output: '18C, cloudy' },
        { type: 'function_call_output', call_id: 'call_2', output: [{ type: 'input_text', text: '14:05' }] },
        { role: 'assistant', content: '18C and 14:05.' },
        { role: 'user', content: [{ type: 'input_text', text: 'Thanks. Answer in JSON.' }] },
      ],
      tools: [
        {
          type: 'function',
          name: 'get_weather',
          description: 'Weather for a city',
          parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
          strict: true,
        },
        { type: 'function', name: 'get_time', parameters: { type: 'object', properties: { tz: { type: 'string' } } } },
      ],
      tool_choice: 'auto',
      parallel_tool_calls: true,
      max_output_tokens: 500,
      temperature: 0.2,
      top_p: 0.9,
      text: {
        verbosity: 'low',
        format: { type: 'json_schema', name: 'answer', schema: { type: 'object', properties: { weather: { type: 'string' } } }, strict: true },
      },
      reasoning: { effort: 'medium', summary: 'auto' },
      stream: true,
      user: 'user-42',
      metadata: { trace: 't-1' },
      store: false,
      include: ['reasoning.encrypted_content'],
    });
  });

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

  it('drops what Responses lacks with warnings, stores nothing, and names a tool choice', () => {
    const { body, warnings } = hubToOpenaiResponsesRequest(
      base({ topK: 40, seed: 1, stopSequences: ['END'], toolChoice: { type: 'tool', name: 'f' }, reasoning: { budgetTokens: 20000 }, extensions: { 'openai-chat': { logprobs: true } } }),
      'o3',
    );
    expect(body).toEqual({
      model: 'o3',
      input: [{ role: 'user', content: [{ type: 'input_text', text: 'hi' }] }],
      tool_choice: { type: 'function', name: 'f' },
      reasoning: { effort: 'high' },
      stream: false,
      store: false,
    });
    expect(warnings.map((w) => w.feature)).toEqual(['top_k', 'seed', 'stop', 'logprobs']);
  });
});
