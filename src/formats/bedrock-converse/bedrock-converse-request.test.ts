import { describe, expect, it } from 'vitest';
import type { HubRequest } from '../../hub/hub-request.ts';
import { converseRequestToHub, hubToConverseRequest } from './bedrock-converse-request.ts';

const base: HubRequest = { model: 'm', system: [], messages: [], tools: [], stopSequences: [], stream: false, extensions: {} };
const weather = { name: 'get_weather', description: 'Weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } };

describe('hubToConverseRequest', () => {
  it('writes system, inference settings, tools, images as bytes, and tool results merged into one user turn', () => {
    const { body, warnings } = hubToConverseRequest({
      ...base,
      system: [{ type: 'text', text: 'Be brief.' }],
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'Weather in Paris and Rome?' }, { type: 'image', source: { kind: 'base64', data: 'iVBORw0KGgo=', mediaType: 'image/png' } }] },
        { role: 'assistant', content: [{ type: 'text', text: 'Checking.' }, { type: 'tool-call', id: 'call_1', name: 'get_weather', argumentsJson: '{"city":"Paris"}' }, { type: 'tool-call', id: 'call.2', name: 'get_weather', argumentsJson: '{"city":"Rome"}' }] },
        { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'call_1', content: 'sunny', isError: false }, { type: 'tool-result', toolCallId: 'call.2', content: 'no such city', isError: true }] },
        { role: 'user', content: [{ type: 'text', text: 'And?' }] },
      ],
      tools: [weather],
      toolChoice: 'required',
      maxOutputTokens: 200,
      temperature: 0.2,
      topP: 0.9,
      stopSequences: ['END'],
      seed: 7,
      metadata: { app: 'x' },
    }, 'anthropic.claude-3-haiku-20240307-v1:0');
    expect(body).toEqual({
      system: [{ text: 'Be brief.' }],
      messages: [
        { role: 'user', content: [{ text: 'Weather in Paris and Rome?' }, { image: { format: 'png', source: { bytes: 'iVBORw0KGgo=' } } }] },
        { role: 'assistant', content: [{ text: 'Checking.' }, { toolUse: { toolUseId: 'call_1', name: 'get_weather', input: { city: 'Paris' } } }, { toolUse: { toolUseId: 'call_2', name: 'get_weather', input: { city: 'Rome' } } }] },
        { role: 'user', content: [
          { toolResult: { toolUseId: 'call_1', content: [{ text: 'sunny' }], status: 'success' } },
          { toolResult: { toolUseId: 'call_2', content: [{ text: 'no such city' }], status: 'error' } },
          { text: 'And?' },
        ] },
      ],
      inferenceConfig: { maxTokens: 200, temperature: 0.2, topP: 0.9, stopSequences: ['END'] },
      toolConfig: { tools: [{ toolSpec: { name: 'get_weather', description: 'Weather', inputSchema: { json: weather.parameters } } }], toolChoice: { any: {} } },
      requestMetadata: { app: 'x' },
    });
    expect(body).not.toHaveProperty('model');
    expect(warnings.map((warning) => warning.feature)).toEqual(['seed']);
  });

  it('sends signed and redacted reasoning back, and leaves unsigned reasoning out with a warning', () => {
    const { body, warnings } = hubToConverseRequest({ ...base, messages: [
      { role: 'user', content: [{ type: 'text', text: 'x' }] },
      { role: 'assistant', content: [{ type: 'reasoning', text: 'mine', signature: 'sig' }, { type: 'reasoning', text: '', redactedData: 'b64' }, { type: 'reasoning', text: 'theirs' }, { type: 'text', text: 'ok' }] },
    ] }, 'm');
    expect((body.messages as { content: unknown[] }[])[1]!.content).toEqual([
      { reasoningContent: { reasoningText: { text: 'mine', signature: 'sig' } } }, { reasoningContent: { redactedContent: 'b64' } }, { text: 'ok' },
    ]);
    expect(warnings).toEqual([expect.objectContaining({ type: 'dropped', feature: 'messages[1].content[2]' })]);
  });

  it('writes top_k and thinking in additionalModelRequestFields for Claude models, in Anthropic\'s shape and rules', () => {
    const hello = [{ role: 'user' as const, content: [{ type: 'text' as const, text: 'hi' }] }];
    const topK = hubToConverseRequest({ ...base, messages: hello, topK: 40, temperature: 0.3 }, 'us.anthropic.claude-sonnet-4-20250514-v1:0');
    expect(topK.body).toMatchObject({ inferenceConfig: { temperature: 0.3 }, additionalModelRequestFields: { top_k: 40 } });
    expect(topK.warnings).toEqual([]);
    const thinking = hubToConverseRequest({ ...base, messages: hello, topK: 40, temperature: 0.3, topP: 0.99, reasoning: { includeThoughts: true, budgetTokens: 2000 } }, 'arn:aws:bedrock:us-east-1:123456789012:inference-profile/global.anthropic.claude-sonnet-4-5-20250929-v1:0');
    expect(thinking.body.additionalModelRequestFields).toEqual({ thinking: { type: 'enabled', budget_tokens: 2000 } });
    // No max_tokens from the caller: the budget plus Anthropic's default, so the answer has room after thinking.
    expect(thinking.body.inferenceConfig).toEqual({ maxTokens: 6096, topP: 0.99 });
    expect(thinking.warnings.map((warning) => warning.feature)).toEqual(['top_k', 'temperature']);
    expect(hubToConverseRequest({ ...base, messages: hello, maxOutputTokens: 1500, reasoning: { effort: 'high' } }, 'anthropic.claude-3-7-sonnet-20250219-v1:0').body)
      .toMatchObject({ inferenceConfig: { maxTokens: 1500 }, additionalModelRequestFields: { thinking: { type: 'enabled', budget_tokens: 1499 } } });
    expect(() => hubToConverseRequest({ ...base, messages: hello, maxOutputTokens: 800, reasoning: { effort: 'low' } }, 'anthropic.claude-3-7-sonnet-20250219-v1:0')).toThrowError(/max_tokens/);
  });

  it('drops top_k and reasoning with a warning for models whose fields are not Claude\'s', () => {
    const { body, warnings } = hubToConverseRequest({ ...base, messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }], topK: 40, reasoning: { effort: 'low' } }, 'amazon.nova-pro-v1:0');
    expect(body).not.toHaveProperty('additionalModelRequestFields');
    expect(warnings.map((warning) => warning.feature)).toEqual(['top_k', 'reasoning']);
  });

  it("leaves tools out for tool choice 'none' when none were used, and names a specific tool", () => {
    expect(hubToConverseRequest({ ...base, messages: [{ role: 'user', content: [{ type: 'text', text: 'x' }] }], tools: [weather], toolChoice: 'none' }, 'm').body).not.toHaveProperty('toolConfig');
    expect(hubToConverseRequest({ ...base, tools: [weather], toolChoice: { type: 'tool', name: 'get_weather' } }, 'm').body.toolConfig).toMatchObject({ toolChoice: { tool: { name: 'get_weather' } } });
  });

  it('refuses an image Converse cannot take with a 400 naming it', () => {
    const request: HubRequest = { ...base, messages: [{ role: 'user', content: [{ type: 'image', source: { kind: 'base64', data: 'AAAA', mediaType: 'image/bmp' } }] }] };
    expect(() => hubToConverseRequest(request, 'm')).toThrow(expect.objectContaining({ status: 400, param: 'messages[0].content[0]' }));
    const url: HubRequest = { ...base, messages: [{ role: 'user', content: [{ type: 'image', source: { kind: 'url', url: 'https://x/y.png' } }] }] };
    expect(() => hubToConverseRequest(url, 'm')).toThrow(expect.objectContaining({ status: 400 }));
  });
});

describe('converseRequestToHub', () => {
  it('reads a Converse request back into the same hub request', () => {
    const hub: HubRequest = {
      ...base,
      model: 'anthropic.claude',
      system: [{ type: 'text', text: 'Be brief.' }],
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'Weather?' }] },
        { role: 'assistant', content: [{ type: 'tool-call', id: 'call_1', name: 'get_weather', argumentsJson: '{"city":"Paris"}' }] },
        { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'call_1', content: 'sunny', isError: false }] },
      ],
      tools: [weather],
      toolChoice: 'auto',
      maxOutputTokens: 50,
      stopSequences: ['END'],
    };
    const { body } = hubToConverseRequest(hub, 'anthropic.claude');
    expect(converseRequestToHub(body, { model: 'anthropic.claude' }).request).toEqual(hub);
  });

  it('answers a body without messages with a 400 naming the field', () => {
    expect(() => converseRequestToHub({ system: [] })).toThrow(expect.objectContaining({ status: 400, param: 'messages' }));
  });
});
