// Chaos: each upstream failure the gateway must survive, with what the client receives, how many
// attempts each upstream saw, what was logged and charged, and a normal request right after.
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOpenAISimulator, type OpenAISimulator } from '../simulators/openai-simulator.ts';
import { startTestGateway, testKey, type TestGateway } from '../helpers/test-gateway.ts';

const KEY = testKey('chaosmonkey');
const UPSTREAM_KEY = 'sk-upstream-chaos';
let primary: OpenAISimulator;
let backup: OpenAISimulator;
let gateway: TestGateway;

/** Each scenario has its own model, served by a primary channel (priority 1) and a backup (priority 0). */
const scenarios = ['refused', 'fivexx', 'retryafter', 'longwait', 'context', 'plain400', 'silent', 'slowfirst', 'cut', 'stall', 'malformed', 'breaker', 'listed', 'resumable', 'noprefill'];
const priced = (id: string) => ({ id, owned_by: 'test', input_per_mtok: 1, output_per_mtok: 1 });

beforeAll(async () => {
  primary = await startOpenAISimulator({ apiKey: UPSTREAM_KEY });
  backup = await startOpenAISimulator({ apiKey: UPSTREAM_KEY });
  const timeouts = { headers_ms: 400, first_token_ms: 400, idle_ms: 400 };
  gateway = await startTestGateway({
    channels: [
      { name: 'primary', type: 'openai', base_url: primary.url, api_key: UPSTREAM_KEY, models: scenarios.filter((s) => s !== 'refused' && s !== 'breaker'), priority: 1, timeouts },
      // Its own channel: the other scenarios' failures on 'primary' must not count towards this circuit.
      { name: 'flaky', type: 'openai', base_url: primary.url, api_key: UPSTREAM_KEY, models: ['breaker'], priority: 1, timeouts },
      { name: 'dead', type: 'openai', base_url: 'http://127.0.0.1:9', api_key: UPSTREAM_KEY, models: ['refused'], priority: 1, timeouts },
      { name: 'backup', type: 'openai', base_url: backup.url, api_key: UPSTREAM_KEY, models: scenarios.filter((s) => !['plain400', 'cut', 'stall', 'context', 'listed', 'resumable', 'noprefill'].includes(s)).concat(['bigger']), priority: 0, timeouts },
      // Servers that continue a trailing assistant message (vLLM's continue_final_message), and one that refuses to.
      { name: 'continuer', type: 'openai', base_url: backup.url, api_key: UPSTREAM_KEY, models: ['resumable'], priority: 0, timeouts, supports_prefill: true },
      { name: 'refuser', type: 'openai', base_url: backup.url, api_key: UPSTREAM_KEY, models: ['noprefill'], priority: 0, timeouts, supports_prefill: true },
    ],
    models: [...scenarios.map((id) => (id === 'context' ? { ...priced(id), fallbacks: ['bigger'] } : priced(id))), priced('bigger')],
    users: [{ name: 'chaos', balance: 100 }],
    keys: [{ name: 'chaos', key: KEY, user: 'chaos' }],
  }, { env: { BREAKER_FAILURES: '3', BREAKER_COOLDOWN_MS: '400' } });
});

afterAll(async () => {
  await gateway?.dispose();
  await primary?.close();
  await backup?.close();
});

const client = new Proxy({} as OpenAI, { get: (_t, prop) => (new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: KEY, maxRetries: 0 }) as never)[prop] });
const ask = (model: string, extra: object = {}) => client.chat.completions.create({ model, max_tokens: 50, messages: [{ role: 'user', content: `scenario ${model}` }], ...extra });
const countOn = (sim: OpenAISimulator, model: string) => sim.requests.filter((r) => (r.body as { model?: string })?.model === model).length;

async function lastLog() {
  await gateway.recorder.flush();
  return gateway.database.db.selectFrom('usage_logs').selectAll().orderBy('id', 'desc').limit(1).executeTakeFirstOrThrow();
}

async function streamText(model: string): Promise<string> {
  const response = await fetch(`${gateway.url}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model, stream: true, messages: [{ role: 'user', content: `scenario ${model}` }] }),
  });
  expect(response.status).toBe(200);
  return response.text();
}

function contentOf(sse: string): string {
  return sse.split('\n').filter((line) => line.startsWith('data: {')).map((line) => JSON.parse(line.slice(6)) as { choices?: { delta?: { content?: string } }[] })
    .map((chunk) => chunk.choices?.[0]?.delta?.content ?? '').join('');
}

describe('before any byte reaches the client', () => {
  it('fails over from an unreachable channel, retrying it once first', async () => {
    const completion = await ask('refused');
    expect(completion.choices[0]?.message.content).toContain('scenario refused');
    const log = await lastLog();
    const attempts = JSON.parse(log.attempts_json!) as { channel: string; outcome: string }[];
    expect(attempts.map((a) => `${a.channel}:${a.outcome}`)).toEqual(['dead:transient', 'dead:transient', 'backup:ok']);
    expect(log.cost_micros).toBeGreaterThan(0);
  });

  it('retries a 5xx once on the same channel, then fails over', async () => {
    const boom = { status: 502, body: { error: { message: 'bad gateway', type: 'server_error', param: null, code: null } } };
    primary.script(boom, boom);
    const completion = await ask('fivexx');
    expect(completion.choices[0]?.message.content).toContain('scenario fivexx');
    expect(countOn(primary, 'fivexx')).toBe(2);
    expect(countOn(backup, 'fivexx')).toBe(1);
    await expect(ask('fivexx')).resolves.toBeDefined();
  });

  it('waits out a short Retry-After on the same channel', async () => {
    primary.script({ status: 429, headers: { 'retry-after': '1' }, body: { error: { message: 'slow down', type: 'requests', param: null, code: 'rate_limit_exceeded' } } });
    const started = Date.now();
    await ask('retryafter');
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    expect(countOn(primary, 'retryafter')).toBe(2);
    expect(countOn(backup, 'retryafter')).toBe(0);
  });

  it('fails over at once when Retry-After is too long to wait', async () => {
    primary.script({ status: 429, headers: { 'retry-after': '120' }, body: { error: { message: 'come back later', type: 'requests', param: null, code: 'rate_limit_exceeded' } } });
    const started = Date.now();
    await ask('longwait');
    expect(Date.now() - started).toBeLessThan(900);
    expect(countOn(primary, 'longwait')).toBe(1);
    expect(countOn(backup, 'longwait')).toBe(1);
  });

  it('sends a context-length failure to the configured larger model, billed as that model', async () => {
    primary.script({ status: 400, body: { error: { message: "This model's maximum context length is 8192 tokens.", type: 'invalid_request_error', param: 'messages', code: 'context_length_exceeded' } } });
    const completion = await ask('context');
    expect(completion.model).toBe('bigger');
    expect(countOn(primary, 'context')).toBe(1);
    const log = await lastLog();
    expect(log.model).toBe('bigger');
  });

  it('returns any other 400 to the client without a retry', async () => {
    primary.script({ status: 400, body: { error: { message: "Invalid 'messages[0].content': too short.", type: 'invalid_request_error', param: 'messages', code: 'invalid_value' } } });
    await expect(ask('plain400')).rejects.toMatchObject({ status: 400, code: 'invalid_value' });
    expect(countOn(primary, 'plain400')).toBe(1);
    const log = await lastLog();
    expect(log.status).toBe(400);
    expect(log.cost_micros).toBe(0);
    // Logged once, by the relay (with its attempt): the route does not log it again as a refusal.
    const rows = await gateway.database.db.selectFrom('usage_logs').select(['status', 'attempts_json']).where('model', '=', 'plain400').execute();
    expect(rows).toHaveLength(1);
    expect((JSON.parse(rows[0]!.attempts_json!) as { channel: string; outcome: string }[]).map((a) => `${a.channel}:${a.outcome}`)).toEqual(['primary:final']);
  });

  it('fails over from a silent upstream after its first timeout, without retrying it', async () => {
    primary.script({ delayMs: 2000 });
    const started = Date.now();
    const completion = await ask('silent');
    expect(completion.choices[0]?.message.content).toContain('scenario silent');
    expect(Date.now() - started).toBeLessThan(1500);
    expect(countOn(primary, 'silent')).toBe(1);
  });

  it('hides a slow first token: the stream comes whole from the backup', async () => {
    primary.script({ firstChunkDelayMs: 2000 });
    const text = await streamText('slowfirst');
    expect(contentOf(text)).toContain('scenario slowfirst');
    expect(text.trimEnd().endsWith('data: [DONE]')).toBe(true);
    expect(countOn(backup, 'slowfirst')).toBe(1);
  });
});

describe('after the first byte', () => {
  it('retries invisibly when a stream is cut before anything reached the client', async () => {
    primary.script({ cutStreamAfterChunks: 3 });
    const text = await streamText('cut');
    expect(contentOf(text)).toBe('Hello from the OpenAI simulator: you said "scenario cut"');
    expect(text.trimEnd().endsWith('data: [DONE]')).toBe(true);
  });

  it('ends a cut stream with an error event, never a normal finish, and charges only what was delivered', async () => {
    primary.script({ cutStreamAfterChunks: 3, chunkDelayMs: 30 });
    const text = await streamText('cut');
    expect(text).toContain('data: {"error":');
    expect(text).not.toContain('[DONE]');
    const log = await lastLog();
    expect(log.error).toContain('failed midway');
    const delivered = contentOf(text);
    expect(delivered.length).toBeGreaterThan(0);
    expect(log.output_tokens).toBeGreaterThan(0);
    expect(log.output_tokens).toBeLessThan(12);
    await expect(ask('cut')).resolves.toBeDefined();
  });

  it('ends a stalled stream with an error event after the idle limit', async () => {
    primary.script({ stallAfterChunks: 2 });
    const started = Date.now();
    const text = await streamText('stall');
    expect(Date.now() - started).toBeLessThan(2000);
    expect(text).toContain('data: {"error":');
    expect(text).not.toContain('[DONE]');
  });

  it('skips a malformed event and delivers the rest', async () => {
    primary.script({ malformedChunkAt: 2 });
    const text = await streamText('malformed');
    expect(text).not.toContain('not json');
    expect(contentOf(text)).toBe('Hello from the OpenAI simulator: you said "scenario malformed"');
    expect(text.trimEnd().endsWith('data: [DONE]')).toBe(true);
  });
});

describe('continuing a broken stream elsewhere', () => {
  it('continues a cut stream on a channel that accepts a prefill, so the client gets one whole answer', async () => {
    primary.script({ cutStreamAfterChunks: 4, chunkDelayMs: 30 });
    const text = await streamText('resumable');
    expect(text).not.toContain('"error"');
    expect(contentOf(text)).toBe('Hello from the OpenAI simulator: you said "scenario resumable"');
    expect(text.trimEnd().endsWith('data: [DONE]')).toBe(true);
    const continued = backup.requests.at(-1)!.body as { messages: { role: string; content: string }[]; continue_final_message?: boolean };
    expect(continued.continue_final_message).toBe(true);
    expect(continued.messages.at(-1)?.role).toBe('assistant');
    expect('Hello from the OpenAI simulator: you said "scenario resumable"'.startsWith(continued.messages.at(-1)!.content)).toBe(true);
    const log = await lastLog();
    expect(log.error).toBeNull();
    expect(JSON.parse(log.attempts_json!).map((a: { outcome: string }) => a.outcome)).toEqual(['ok', 'continued']);
  });

  it('restarts without the prefill on a fallback that refuses it, sending only what the client lacks', async () => {
    primary.script({ cutStreamAfterChunks: 4, chunkDelayMs: 30 });
    backup.script({ status: 400, body: { error: { message: 'continue_final_message is not supported', type: 'invalid_request_error', param: null, code: null } } });
    const text = await streamText('noprefill');
    expect(text).not.toContain('"error"');
    expect(contentOf(text)).toBe('Hello from the OpenAI simulator: you said "scenario noprefill"');
    expect(text.trimEnd().endsWith('data: [DONE]')).toBe(true);
    const restarted = backup.requests.at(-1)!.body as { messages: { role: string }[]; continue_final_message?: boolean };
    expect(restarted.continue_final_message).toBeUndefined();
    expect(restarted.messages.at(-1)?.role).toBe('user');
    const log = await lastLog();
    expect(log.error).toBeNull();
    expect(JSON.parse(log.attempts_json!).map((a: { outcome: string }) => a.outcome)).toEqual(['ok', 'continuation refused', 'restarted']);
  });

  it('ends with the original failure when the restarted answer differs from what was sent', async () => {
    primary.script({ cutStreamAfterChunks: 4, chunkDelayMs: 30 });
    backup.script(
      { status: 400, body: { error: { message: 'continue_final_message is not supported', type: 'invalid_request_error', param: null, code: null } } },
      { reply: 'A completely different answer this time around.' },
    );
    const text = await streamText('noprefill');
    const delivered = contentOf(text);
    expect(delivered.length).toBeGreaterThan(0);
    expect('Hello from the OpenAI simulator: you said "scenario noprefill"'.startsWith(delivered)).toBe(true);
    expect(text).not.toContain('completely different');
    expect(text).toContain('failed midway');
    expect(text).not.toContain('[DONE]');
    const log = await lastLog();
    expect(log.error).toContain('differed');
  });
});

describe('health', () => {
  it('opens the circuit of a failing channel, serves from the backup, and closes it after a good probe', async () => {
    const boom = { status: 500, body: { error: { message: 'down', type: 'server_error', param: null, code: null } } };
    primary.script(boom, boom, boom);
    await ask('breaker'); // two failures on primary, answered by backup
    await ask('breaker'); // a third: the circuit opens, and the open channel is not retried
    const before = countOn(primary, 'breaker');
    await ask('breaker');
    await ask('breaker');
    expect(countOn(primary, 'breaker')).toBe(before); // skipped while open
    await new Promise((resolve) => setTimeout(resolve, 500));
    await ask('breaker'); // the probe succeeds
    await ask('breaker');
    expect(countOn(primary, 'breaker')).toBe(before + 2);
  });
});

describe('fallback models named in the request', () => {
  it('answers from the next listed model and removes the field before going upstream', async () => {
    primary.script({ status: 400, body: { error: { message: 'maximum context length exceeded', type: 'invalid_request_error', param: null, code: 'context_length_exceeded' } } });
    const completion = await ask('listed', { models: ['bigger'] } as never);
    expect(completion.model).toBe('bigger');
    const seen = backup.requests.at(-1)!.body as Record<string, unknown>;
    expect(seen.model).toBe('bigger');
    expect(seen.models).toBeUndefined();
  });
});
