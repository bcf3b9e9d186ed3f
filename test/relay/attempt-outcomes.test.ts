// What one upstream failure means to the relay, decided from the status and the channel format's own
// refusal reader; and the attempt records the usage log is derived from, immutable once made.
import { describe, expect, it } from 'vitest';
import { getFormat } from '../../src/formats/index.ts';
import { upstreamCredentialsRefused } from '../../src/gateway-errors.ts';
import { upstreamStatusError } from '../../src/hub/hub-errors.ts';
import { classifyUpstreamStatus } from '../../src/relay/attempt-policy.ts';
import { attemptRecord, logAttempt } from '../../src/relay/attempt-log.ts';
import { newCallMeter } from '../../src/relay/relay-types.ts';

const errorOf = (status: number, code: string | null, message: string) => upstreamStatusError(status, { message, code });

describe('classifying an upstream error answer', () => {
  const classify = (format: string, status: number, body: object) => {
    const error = getFormat(format).errorToHub(status, body);
    return classifyUpstreamStatus(status, error, getFormat(format).refusalOf(status, body));
  };

  it("sends a prompt too long to a fallback model, as each format's envelope says it", () => {
    expect(classify('openai-chat', 400, { error: { message: "This model's maximum context length is 8192 tokens.", type: 'invalid_request_error', param: 'messages', code: 'context_length_exceeded' } })).toBe('context-length');
    expect(classify('anthropic-messages', 400, { type: 'error', error: { type: 'invalid_request_error', message: 'prompt is too long: 210000 tokens > 200000 maximum' } })).toBe('context-length');
    expect(classify('gemini-generate', 400, { error: { code: 400, message: 'The input token count (1200000) exceeds the maximum number of tokens allowed (1048576).', status: 'INVALID_ARGUMENT' } })).toBe('context-length');
  });

  it('returns a content-policy refusal to the client, even on a status that would otherwise disable the channel', () => {
    expect(classify('openai-chat', 400, { error: { message: 'The prompt was filtered.', type: 'invalid_request_error', param: 'prompt', code: 'content_filter' } })).toBe('final');
    expect(classify('openai-chat', 403, { error: { message: 'Blocked by the content policy.', type: 'invalid_request_error', param: null, code: 'content_policy_violation' } })).toBe('final');
    // Without the format's verdict the same 403 is a refused credential.
    expect(classifyUpstreamStatus(403, errorOf(403, 'content_policy_violation', 'Blocked'))).toBe('credentials');
  });

  it('leaves other client errors final, and words alone no longer decide', () => {
    expect(classify('openai-chat', 400, { error: { message: "Invalid 'messages[0].content'.", type: 'invalid_request_error', param: 'messages', code: 'invalid_value' } })).toBe('final');
    // A message that merely mentions tokens, with no refusal recognised by the format, is the client's to fix.
    expect(classifyUpstreamStatus(400, errorOf(400, null, 'prompt is too long'))).toBe('final');
    expect(classifyUpstreamStatus(400, errorOf(400, null, 'x'), 'context-length')).toBe('context-length');
  });
});

describe('a refused channel credential', () => {
  it('is known by its gateway code, whatever status carried it; an upstream that only says so in its own code is not the channel\'s refusal', () => {
    // A Google 400 naming an invalid key: the gateway recognised it and says so with its own code.
    expect(classifyUpstreamStatus(400, upstreamCredentialsRefused('gemini', 400, 'API_KEY_INVALID'))).toBe('credentials');
    // Another gateway in front of its own upstream, whose credentials were refused there: ours were not.
    expect(classifyUpstreamStatus(502, errorOf(502, 'upstream_credentials_refused', "The upstream channel 'x' refused the gateway's credentials"))).toBe('transient');
    expect(classifyUpstreamStatus(401, errorOf(401, 'invalid_api_key', 'bad key'))).toBe('credentials');
  });
});

describe('attempt records', () => {
  it('are frozen when made and appended once each to the call log', () => {
    const meter = newCallMeter();
    const record = attemptRecord('m', 'primary', 502, 'transient', 'upstream answered 502', performance.now() - 5, 'GW_ERR_UPSTREAM_STATUS');
    expect(Object.isFrozen(record)).toBe(true);
    expect(() => ((record as { outcome: string }).outcome = 'ok')).toThrow(TypeError);
    logAttempt(meter, record);
    logAttempt(meter, attemptRecord('m', 'backup', 200, 'ok', null, performance.now()));
    expect(meter.attempts.map((attempt) => [attempt.channel, attempt.outcome, attempt.code])).toEqual([['primary', 'transient', 'GW_ERR_UPSTREAM_STATUS'], ['backup', 'ok', undefined]]);
    expect(meter.attempts[0]!.ms).toBeGreaterThanOrEqual(5);
  });
});
