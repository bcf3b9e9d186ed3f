import { describe, expect, it } from 'vitest';
import { invalidRequest, rateLimited } from '../../gateway-errors.ts';
import { hubErrorToOpenaiChat, openaiErrorToHub } from './openai-chat-error.ts';

describe('openai chat errors', () => {
  it('keeps a 429 a 429 and a 400 its message and param', () => {
    const limited = openaiErrorToHub(429, '{"error":{"message":"Rate limit reached for gpt-4o","type":"requests","param":null,"code":"rate_limit_exceeded"}}');
    expect([limited.status, limited.kind, limited.code, limited.message]).toEqual([429, 'rate_limit_error', 'rate_limit_exceeded', 'Rate limit reached for gpt-4o']);
    const bad = openaiErrorToHub(400, { error: { message: "Invalid 'messages[0].role'", type: 'invalid_request_error', param: 'messages[0].role', code: 'invalid_value' } });
    expect([bad.status, bad.kind, bad.param, bad.message]).toEqual([400, 'invalid_request_error', 'messages[0].role', "Invalid 'messages[0].role'"]);
  });

  it('tells insufficient_quota apart from a rate limit', () => {
    const quota = openaiErrorToHub(429, { error: { message: 'You exceeded your current quota', type: 'insufficient_quota', param: null, code: 'insufficient_quota' } });
    expect(quota.kind).toBe('insufficient_quota');
  });

  it('falls back to the text of a body that is not an OpenAI error', () => {
    const error = openaiErrorToHub(502, '<html>Bad gateway</html>');
    expect([error.status, error.kind, error.message]).toEqual([502, 'upstream_error', '<html>Bad gateway</html>']);
  });

  it('renders the OpenAI envelope with headers', () => {
    const rendered = hubErrorToOpenaiChat(rateLimited('rpm', 'key:1', 12));
    expect(rendered.status).toBe(429);
    expect(rendered.headers).toEqual({ 'retry-after': '12' });
    expect(JSON.parse(rendered.body)).toEqual({
      error: { message: 'Rate limit reached: requests per minute for this API key. Try again in 12 s.', type: 'rate_limit_error', param: null, code: 'rate_limit_exceeded' },
    });
    expect(JSON.parse(hubErrorToOpenaiChat(invalidRequest('bad', 'messages')).body).error.param).toBe('messages');
  });
});
