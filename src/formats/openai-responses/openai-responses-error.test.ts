import { describe, expect, it } from 'vitest';
import { invalidRequest, rateLimited } from '../../gateway-errors.ts';
import { openaiResponsesFormat } from './index.ts';

describe('openai responses errors', () => {
  it('reads OpenAI error envelopes, keeping status, param and code', () => {
    const bad = openaiResponsesFormat.errorToHub(400, { error: { message: "Invalid 'input[0]'", type: 'invalid_request_error', param: 'input[0]', code: 'invalid_value' } });
    expect([bad.status, bad.kind, bad.param, bad.code, bad.message]).toEqual([400, 'invalid_request_error', 'input[0]', 'invalid_value', "Invalid 'input[0]'"]);
    const text = openaiResponsesFormat.errorToHub(502, '<html>Bad gateway</html>');
    expect([text.status, text.kind, text.message]).toEqual([502, 'upstream_error', '<html>Bad gateway</html>']);
  });

  it('renders the OpenAI envelope with headers', () => {
    const rendered = openaiResponsesFormat.hubToError(rateLimited('rpm', 'key:1', 12));
    expect(rendered.status).toBe(429);
    expect(rendered.headers).toEqual({ 'retry-after': '12' });
    expect(JSON.parse(rendered.body)).toEqual({
      error: { message: 'Rate limit reached: requests per minute for this API key. Try again in 12 s.', type: 'rate_limit_error', param: null, code: 'rate_limit_exceeded' },
    });
    const refused = openaiResponsesFormat.hubToError(invalidRequest('previous_response_id needs an OpenAI-type channel', 'previous_response_id'));
    expect(JSON.parse(refused.body).error).toEqual({ message: 'previous_response_id needs an OpenAI-type channel', type: 'invalid_request_error', param: 'previous_response_id', code: null });
  });

  it('writes a mid-stream failure as an `error` event', () => {
    expect(openaiResponsesFormat.hubErrorToStreamEvent(invalidRequest('bad', 'tools[0].type'))).toEqual({
      event: 'error',
      data: '{"type":"error","code":"invalid_request_error","message":"bad","param":"tools[0].type","sequence_number":0}',
    });
  });

  it('is registered under its own name', () => {
    expect(openaiResponsesFormat.name).toBe('openai-responses');
  });
});
