import { describe, expect, it } from 'vitest';
import { insufficientQuota, invalidRequest, modelNotFound, modelUnavailable } from '../../gateway-errors.ts';
import { anthropicErrorToHub, hubErrorToAnthropicMessages } from './anthropic-messages-error.ts';

describe('anthropic messages errors', () => {
  it('keeps status, type and message of upstream errors', () => {
    const overloaded = anthropicErrorToHub(529, '{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}');
    expect([overloaded.status, overloaded.kind, overloaded.code, overloaded.message]).toEqual([529, 'overloaded_error', 'overloaded_error', 'Overloaded']);
    const bad = anthropicErrorToHub(400, { type: 'error', error: { type: 'invalid_request_error', message: 'messages: roles must alternate' } });
    expect([bad.status, bad.kind, bad.message]).toEqual([400, 'invalid_request_error', 'messages: roles must alternate']);
    const limited = anthropicErrorToHub(429, { type: 'error', error: { type: 'rate_limit_error', message: 'Number of requests has exceeded your rate limit' } });
    expect([limited.status, limited.kind]).toEqual([429, 'rate_limit_error']);
  });

  it('renders the Anthropic envelope with Anthropic error types', () => {
    const render = (e: Parameters<typeof hubErrorToAnthropicMessages>[0]) => {
      const r = hubErrorToAnthropicMessages(e);
      return [r.status, JSON.parse(r.body)];
    };
    expect(render(invalidRequest('bad field', 'messages'))).toEqual([400, { type: 'error', error: { type: 'invalid_request_error', message: 'bad field' } }]);
    expect(render(modelNotFound('x'))[1].error.type).toBe('not_found_error');
    expect(render(modelUnavailable('x'))).toEqual([503, { type: 'error', error: { type: 'overloaded_error', message: expect.any(String) } }]);
    expect(render(insufficientQuota('wallet'))[1].error.type).toBe('rate_limit_error');
  });
});
