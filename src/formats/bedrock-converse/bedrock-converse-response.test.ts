import { describe, expect, it } from 'vitest';
import { readJsonFixture } from '../../../test/formats/sse-fixtures.ts';
import { converseResponseToHub, hubToConverseResponse } from './bedrock-converse-response.ts';
import { converseErrorToHub, hubErrorToConverse } from './bedrock-converse-error.ts';
import { rateLimited } from '../../gateway-errors.ts';

const fixture = readJsonFixture(new URL('./__fixtures__/converse-response-tools.json', import.meta.url));

describe('converseResponseToHub', () => {
  it('reads reasoning, text, tool uses, the stop reason and usage (cache reads and writes inside the prompt)', () => {
    expect(converseResponseToHub(fixture, { generateId: () => 'msg_1' })).toEqual({
      id: 'msg_1',
      model: '',
      content: [
        { type: 'reasoning', text: 'Two cities: two calls.', signature: 'ErcBCkgIBhABGAIiQ', signatureFamily: 'anthropic' },
        { type: 'text', text: 'Let me check.' },
        { type: 'tool-call', id: 'tooluse_kZJMlvQmRJ6eAyJE5GIl7Q', name: 'get_weather', argumentsJson: '{"city":"Paris"}' },
        { type: 'tool-call', id: 'tooluse_Bb3yqXKqTsi3L2bV0mZ2aQ', name: 'get_weather', argumentsJson: '{"city":"Rome"}' },
      ],
      finishReason: { unified: 'tool-calls', raw: 'tool_use' },
      usage: { inputTokens: 2125, cachedInputTokens: 2000, cacheWriteTokens: 100, outputTokens: 89 },
    });
  });

  it.each([['guardrail_intervened', 'content-filter'], ['content_filtered', 'content-filter'], ['max_tokens', 'length'], ['stop_sequence', 'stop'], ['end_turn', 'stop'], ['something_new', 'other']])(
    'maps stopReason %s to %s', (raw, unified) => {
      const answer = { output: { message: { role: 'assistant', content: [{ text: 'x' }] } }, stopReason: raw };
      expect(converseResponseToHub(answer).finishReason).toEqual({ unified, raw });
      expect(converseResponseToHub(answer).usage).toEqual({});
    });

  it('writes a hub response back as Converse and reads it again unchanged', () => {
    const hub = converseResponseToHub(fixture, { generateId: () => 'msg_1' });
    expect(converseResponseToHub(hubToConverseResponse(hub, { requestModel: 'm' }), { generateId: () => 'msg_1' })).toEqual(hub);
  });

  it('refuses a 2xx body without output as an upstream payload error', () => {
    expect(() => converseResponseToHub({ stopReason: 'end_turn' })).toThrow(expect.objectContaining({ status: 502 }));
  });
});

describe('Converse errors', () => {
  it.each([
    [400, { message: 'Malformed input request' }, 400, 'invalid_request_error', 'ValidationException'],
    [400, { message: 'Input is too long for requested model.' }, 400, 'invalid_request_error', 'context_length_exceeded'],
    [404, { message: 'The provided model identifier is invalid.' }, 404, 'invalid_request_error', 'ResourceNotFoundException'],
    [408, { message: 'Model has timed out' }, 408, 'timeout_error', 'ModelTimeoutException'],
    [424, { message: 'The model failed' }, 502, 'upstream_error', 'ModelErrorException'],
    [429, { message: 'Too many requests' }, 429, 'rate_limit_error', 'ThrottlingException'],
    [429, { message: 'quota', __type: 'com.amazon.bedrock#ServiceQuotaExceededException' }, 429, 'rate_limit_error', 'ServiceQuotaExceededException'],
    [503, { message: 'Service unavailable' }, 503, 'overloaded_error', 'ServiceUnavailableException'],
  ])('reads a %i %j', (status, body, clientStatus, kind, code) => {
    const error = converseErrorToHub(status, JSON.stringify(body));
    expect([error.status, error.kind, error.code, error.message]).toEqual([clientStatus, kind, code, body.message]);
  });

  it('names the exception from the x-amzn-errortype header before the body and the status', () => {
    const headers = { 'x-amzn-errortype': 'InvalidSignatureException:http://internal.amazon.com/coral/com.amazon.bedrock/' };
    const error = converseErrorToHub(403, JSON.stringify({ message: 'The request signature we calculated does not match' }), headers);
    expect([error.status, error.code]).toEqual([403, 'InvalidSignatureException']);
    expect(converseErrorToHub(403, JSON.stringify({ message: 'denied' })).code).toBe('AccessDeniedException');
    expect(converseErrorToHub(400, '<html>Bad</html>', { 'x-amzn-errortype': 'ValidationException' }).code).toBe('ValidationException');
  });

  it('falls back to the text of a body that is not JSON, and renders the envelope with x-amzn-errortype', () => {
    expect(converseErrorToHub(502, '<html>Bad gateway</html>').message).toBe('<html>Bad gateway</html>');
    const rendered = hubErrorToConverse(rateLimited('rpm', 'key:1', 3));
    expect([rendered.status, JSON.parse(rendered.body), rendered.headers?.['x-amzn-errortype']]).toEqual([429, { message: expect.any(String) }, 'ThrottlingException']);
  });
});
