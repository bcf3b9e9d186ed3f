import { describe, expect, it } from 'vitest';
import { readJsonFixture } from '../../../test/formats/sse-fixtures.ts';
import { geminiGenerateResponseToHub, hubToGeminiGenerateResponse } from './gemini-generate-response.ts';

const fixture = (name: string) => readJsonFixture(new URL(`./__fixtures__/${name}`, import.meta.url));

describe('gemini generate responses', () => {
  it('reads thoughts, text, a signed function call as tool-calls, and usage with thoughts added to output', () => {
    const hub = geminiGenerateResponseToHub(fixture('gemini-response-tools.json'), { generateId: () => 'gen_1' });
    expect(hub).toEqual({
      id: 'rsp-R1',
      model: 'gemini-2.5-pro',
      content: [
        { type: 'reasoning', text: 'Thinking about it.' },
        { type: 'text', text: 'Calling.' },
        { type: 'tool-call', id: 'gen_1', name: 'get_time', argumentsJson: '{"tz":"CET"}', signature: 'CiQsig' },
      ],
      finishReason: { unified: 'tool-calls', raw: 'STOP' },
      usage: { inputTokens: 900, cachedInputTokens: 512, outputTokens: 125, reasoningTokens: 100 },
    });
  });

  it('writes a GenerateContentResponse back with candidates tokens excluding thoughts', () => {
    const hub = geminiGenerateResponseToHub(fixture('gemini-response-tools.json'), { generateId: () => 'gen_1' });
    expect(hubToGeminiGenerateResponse(hub, { requestModel: 'alias' })).toEqual({
      candidates: [
        {
          content: {
            role: 'model',
            parts: [
              { text: 'Thinking about it.', thought: true },
              { text: 'Calling.' },
              { functionCall: { id: 'gen_1', name: 'get_time', args: { tz: 'CET' } }, thoughtSignature: 'CiQsig' },
            ],
          },
          finishReason: 'STOP',
          index: 0,
        },
      ],
      usageMetadata: { promptTokenCount: 900, candidatesTokenCount: 25, totalTokenCount: 1025, cachedContentTokenCount: 512, thoughtsTokenCount: 100 },
      modelVersion: 'alias',
      responseId: 'rsp-R1',
    });
  });

  it('maps safety and length finishes, and a blocked prompt to content-filter', () => {
    const make = (finishReason: string) => ({ candidates: [{ content: { parts: [{ text: 'x' }], role: 'model' }, finishReason }], responseId: 'r' });
    expect(geminiGenerateResponseToHub(make('MAX_TOKENS')).finishReason).toEqual({ unified: 'length', raw: 'MAX_TOKENS' });
    expect(geminiGenerateResponseToHub(make('SAFETY')).finishReason).toEqual({ unified: 'content-filter', raw: 'SAFETY' });
    expect(geminiGenerateResponseToHub(make('MALFORMED_FUNCTION_CALL')).finishReason).toEqual({ unified: 'error', raw: 'MALFORMED_FUNCTION_CALL' });
    expect(geminiGenerateResponseToHub({ promptFeedback: { blockReason: 'PROHIBITED_CONTENT' }, responseId: 'r' }).finishReason).toEqual({
      unified: 'content-filter',
      raw: 'PROHIBITED_CONTENT',
    });
  });
});
