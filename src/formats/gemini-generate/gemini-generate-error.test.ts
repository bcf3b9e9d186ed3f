import { describe, expect, it } from 'vitest';
import { invalidApiKey, invalidRequest, modelNotFound, upstreamTimeout } from '../../gateway-errors.ts';
import { geminiErrorToHub, hubErrorToGeminiGenerate } from './gemini-generate-error.ts';

describe('gemini generate errors', () => {
  it('keeps status and message, and reads the array form of streaming errors', () => {
    const bad = geminiErrorToHub(400, '{"error":{"code":400,"message":"Invalid JSON payload received.","status":"INVALID_ARGUMENT"}}');
    expect([bad.status, bad.kind, bad.message, bad.code]).toEqual([400, 'invalid_request_error', 'Invalid JSON payload received.', 'INVALID_ARGUMENT']);
    const limited = geminiErrorToHub(429, [{ error: { code: 429, message: 'Resource has been exhausted', status: 'RESOURCE_EXHAUSTED' } }]);
    expect([limited.status, limited.kind]).toEqual([429, 'rate_limit_error']);
  });

  it('renders Google status names', () => {
    const render = (e: Parameters<typeof hubErrorToGeminiGenerate>[0]) => JSON.parse(hubErrorToGeminiGenerate(e).body);
    expect(render(invalidRequest('bad', 'contents'))).toEqual({ error: { code: 400, message: 'bad', status: 'INVALID_ARGUMENT' } });
    expect(render(invalidApiKey()).error.status).toBe('UNAUTHENTICATED');
    expect(render(modelNotFound('x')).error.status).toBe('NOT_FOUND');
    expect(render(upstreamTimeout('c', 'headers'))).toMatchObject({ error: { code: 504, status: 'DEADLINE_EXCEEDED' } });
  });
});
