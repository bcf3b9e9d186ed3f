import { describe, expect, it } from 'vitest';
import type { HubRequest } from '../../hub/hub-request.ts';
import { readJsonFixture } from '../../../test/formats/sse-fixtures.ts';
import { geminiGenerateRequestToHub, hubToGeminiGenerateRequest } from './gemini-generate-request.ts';

const fixture = (name: string) => readJsonFixture(new URL(`./__fixtures__/${name}`, import.meta.url));
const counter = () => {
  let n = 0;
  return () => `gen_${++n}`;
};

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

describe('geminiGenerateRequestToHub', () => {
  it('reads a snake_case body: system, images, thought signatures, matched function responses, config', () => {
    const { request, warnings } = geminiGenerateRequestToHub(fixture('gemini-request-full.json'), { model: 'gemini-2.5-flash', stream: true, generateId: counter() });
    expect(warnings).toEqual([]);
    expect(request.model).toBe('gemini-2.5-flash');
    expect(request.stream).toBe(true);
    expect(request.system).toEqual([{ type: 'text', text: 'You are a weather bot.' }]);
    expect(request.messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Weather in Paris and Rome? See picture.' },
          { type: 'image', source: { kind: 'base64', data: 'iVBORw0KGgo=', mediaType: 'image/png' } },
        ],
      },
      {
        role: 'assistant',
        content: [
          { type: 'reasoning', text: 'Need both cities.', signature: 'sig-thought', signatureFamily: 'google' },
          { type: 'tool-call', id: 'gen_1', name: 'get_weather', argumentsJson: '{"city":"Paris","unit_system":"metric"}', signature: 'sig-call' },
          { type: 'tool-call', id: 'gen_2', name: 'get_weather', argumentsJson: '{"city":"Rome"}' },
        ],
      },
      {
        role: 'tool',
        content: [
          { type: 'tool-result', toolCallId: 'gen_1', name: 'get_weather', content: '{"temp_c":18}', isError: false },
          { type: 'tool-result', toolCallId: 'gen_2', name: 'get_weather', content: '21C', isError: false },
        ],
      },
      { role: 'user', content: [{ type: 'text', text: 'Which is warmer?' }] },
    ]);
    expect(request.tools).toEqual([
      {
        name: 'get_weather',
        description: 'Weather for a city',
        parameters: { type: 'object', properties: { city: { type: 'string' }, unit_system: { type: ['string', 'null'] } }, required: ['city'] },
      },
    ]);
    expect(request.toolChoice).toEqual({ type: 'tool', name: 'get_weather' });
    expect(request.temperature).toBe(1.4);
    expect(request.topP).toBe(0.95);
    expect(request.topK).toBe(40);
    expect(request.maxOutputTokens).toBe(1000);
    expect(request.stopSequences).toEqual(['END']);
    expect(request.responseFormat).toEqual({ type: 'json_schema', name: 'response', schema: { type: 'object', properties: { warmer: { type: 'string' } } } });
    expect(request.reasoning).toEqual({ budgetTokens: 2048, includeThoughts: true });
    expect(request.extensions).toEqual({
      'gemini-generate': {
        safetySettings: [{ category: 'HARM_CATEGORY_HARASSMENT', threshold: 'BLOCK_NONE' }],
        generationConfig: { candidateCount: 1 },
        server_tools: [{ googleSearch: {} }],
      },
    });
  });

  it('validates temperature 0..2 and top_p 0..1, naming the field path', () => {
    const ok = { contents: [{ role: 'user', parts: [{ text: 'hi' }] }] };
    expect(() => geminiGenerateRequestToHub({ ...ok, generationConfig: { temperature: 2.1 } })).toThrowError(
      expect.objectContaining({ status: 400, param: 'generationConfig.temperature' }),
    );
    expect(() => geminiGenerateRequestToHub({ ...ok, generation_config: { top_p: 1.1 } })).toThrowError(expect.objectContaining({ param: 'generationConfig.topP' }));
    expect(() => geminiGenerateRequestToHub({ contents: [{ role: 'user', parts: [{ text: 5 }] }] })).toThrowError(expect.objectContaining({ param: 'contents[0].parts[0].text' }));
  });

  it('reads thinkingBudget 0 as disabled and a thinking level as an effort', () => {
    const read = (thinkingConfig: unknown) =>
      geminiGenerateRequestToHub({ contents: [{ parts: [{ text: 'x' }] }], generationConfig: { thinkingConfig } }).request.reasoning;
    expect(read({ thinkingBudget: 0 })).toEqual({ disabled: true });
    expect(read({ thinkingLevel: 'HIGH', includeThoughts: false })).toEqual({ effort: 'high', includeThoughts: false });
    expect(read({ thinkingBudget: -1 })).toEqual({});
  });

  it('reads a function-response error and JSON mode without a schema', () => {
    const { request } = geminiGenerateRequestToHub({
      contents: [
        { role: 'model', parts: [{ functionCall: { id: 'fc1', name: 'f', args: {} } }] },
        { role: 'user', parts: [{ functionResponse: { id: 'fc1', name: 'f', response: { error: 'boom' } } }] },
      ],
      generationConfig: { responseMimeType: 'application/json' },
    });
    expect(request.messages[1]).toEqual({ role: 'tool', content: [{ type: 'tool-result', toolCallId: 'fc1', name: 'f', content: 'boom', isError: true }] });
    expect(request.responseFormat).toEqual({ type: 'json_object' });
  });
});

describe('hubToGeminiGenerateRequest', () => {
  it('round-trips the fixture into camelCase Gemini with signatures and server tools kept', () => {
    const { request } = geminiGenerateRequestToHub(fixture('gemini-request-full.json'), { model: 'gemini-2.5-flash', generateId: counter() });
    const { body, warnings } = hubToGeminiGenerateRequest(request, 'gemini-2.5-flash');
    expect(warnings).toEqual([]);
    expect(body).toEqual({
      contents: [
        { role: 'user', parts: [{ text: 'Weather in Paris and Rome? See picture.' }, { inlineData: { mimeType: 'image/png', data: 'iVBORw0KGgo=' } }] },
        {
          role: 'model',
          parts: [
            { text: 'Need both cities.', thought: true, thoughtSignature: 'sig-thought' },
            { functionCall: { name: 'get_weather', args: { city: 'Paris', unit_system: 'metric' } }, thoughtSignature: 'sig-call' },
            { functionCall: { name: 'get_weather', args: { city: 'Rome' } } },
          ],
        },
        {
          role: 'user',
          parts: [
            { functionResponse: { name: 'get_weather', response: { temp_c: 18 } } },
            { functionResponse: { name: 'get_weather', response: { output: '21C' } } },
            { text: 'Which is warmer?' },
          ],
        },
      ],
      systemInstruction: { parts: [{ text: 'You are a weather bot.' }] },
      tools: [
        {
          functionDeclarations: [
            {
              name: 'get_weather',
              description: 'Weather for a city',
              parametersJsonSchema: { type: 'object', properties: { city: { type: 'string' }, unit_system: { type: ['string', 'null'] } }, required: ['city'] },
            },
          ],
        },
        { googleSearch: {} },
      ],
      toolConfig: { functionCallingConfig: { mode: 'ANY', allowedFunctionNames: ['get_weather'] } },
      generationConfig: {
        maxOutputTokens: 1000,
        temperature: 1.4,
        topP: 0.95,
        topK: 40,
        stopSequences: ['END'],
        responseMimeType: 'application/json',
        responseJsonSchema: { type: 'object', properties: { warmer: { type: 'string' } } },
        thinkingConfig: { thinkingBudget: 2048, includeThoughts: true },
        candidateCount: 1,
      },
      safetySettings: [{ category: 'HARM_CATEGORY_HARASSMENT', threshold: 'BLOCK_NONE' }],
    });
  });

  it('names tool results from the matching call id, and refuses one without a call', () => {
    const { body } = hubToGeminiGenerateRequest(
      base({
        messages: [
          { role: 'user', content: [{ type: 'text', text: 'q' }] },
          { role: 'assistant', content: [{ type: 'tool-call', id: 'call_9', name: 'lookup', argumentsJson: '{"q":1}' }] },
          { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'call_9', content: 'not json', isError: false }] },
        ],
      }),
      'g',
    );
    expect((body.contents as any[])[2]).toEqual({ role: 'user', parts: [{ functionResponse: { name: 'lookup', response: { output: 'not json' } } }] });
    const orphan = base({ messages: [{ role: 'tool', content: [{ type: 'tool-result', toolCallId: 'nope', content: 'x', isError: false }] }] });
    expect(() => hubToGeminiGenerateRequest(orphan, 'g')).toThrowError(expect.objectContaining({ status: 400, param: 'messages[0].content[0]' }));
  });

  it('maps an effort to a thinking budget, disabled to 0, and refuses an image URL that was not inlined', () => {
    expect(hubToGeminiGenerateRequest(base({ reasoning: { effort: 'medium' } }), 'g').body.generationConfig).toEqual({ thinkingConfig: { thinkingBudget: 8192 } });
    expect(hubToGeminiGenerateRequest(base({ reasoning: { disabled: true } }), 'g').body.generationConfig).toEqual({ thinkingConfig: { thinkingBudget: 0 } });
    const withUrl = base({ messages: [{ role: 'user', content: [{ type: 'image', source: { kind: 'url', url: 'https://example.com/a.png' } }] }] });
    expect(() => hubToGeminiGenerateRequest(withUrl, 'g')).toThrowError(expect.objectContaining({ status: 400, param: 'messages[0].content[0]' }));
  });

  it('warns about what Gemini lacks', () => {
    const { warnings } = hubToGeminiGenerateRequest(base({ user: 'u', parallelToolCalls: false, extensions: { 'openai-chat': { n: 2 } } }), 'g');
    expect(warnings.map((w) => w.feature)).toEqual(['parallel_tool_calls', 'user', 'n']);
  });
});
