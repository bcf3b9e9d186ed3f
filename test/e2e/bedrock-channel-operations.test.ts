// A `bedrock` channel's operations, end to end through the gateway and the Bedrock simulator: metering from
// Converse usage (cache reads and writes priced apart, unreported usage counted), exception events
// mid-stream, a wrong AWS secret (502 to the client, the channel disabled with its reason), the channel
// test, failover, errors passed on, temporary credentials, and credentials checked on save, never shown.
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BEDROCK_SIM_CREDENTIALS, type BedrockSimulator } from '../simulators/bedrock-simulator.ts';
import type { TestGateway } from '../helpers/test-gateway.ts';
import { parseConfigText } from '../../src/config/load-config-file.ts';
import { ADMIN_KEY, AWS_KEY, GREETING, KEY, MODEL, TEMPORARY, startBedrockGateway, type BedrockGateway } from '../helpers/bedrock-gateway.ts';

let sim: BedrockSimulator;
let spare: BedrockSimulator;
let gateway: TestGateway;
let running: BedrockGateway | undefined;

beforeAll(async () => {
  running = await startBedrockGateway();
  ({ sim, spare, gateway } = running);
});
afterAll(() => running?.dispose());

const openai = () => new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: KEY, maxRetries: 0 });
const anthropic = () => new Anthropic({ baseURL: gateway.url, apiKey: KEY, maxRetries: 0 });

async function admin(method: string, path: string, body?: object) {
  const response = await fetch(`${gateway.url}${path}`, { method, headers: { authorization: `Bearer ${ADMIN_KEY}`, ...(body ? { 'content-type': 'application/json' } : {}) }, body: body ? JSON.stringify(body) : undefined });
  return { status: response.status, body: await response.json() as Record<string, unknown> };
}
const channelRow = (name: string) => gateway.database.db.selectFrom('channels').selectAll().where('name', '=', name).executeTakeFirstOrThrow();

describe('bedrock channel operations', () => {
  it.each([false, true])('bills from Converse usage, cache reads and writes priced apart (streamed: %s)', async (stream) => {
    sim.script({ cachedTokens: 2, cacheWriteTokens: 1 });
    const prompt = 'Please tell me about the quiet harbour town';
    if (stream) {
      for await (const _chunk of await openai().chat.completions.create({ model: MODEL, stream: true, messages: [{ role: 'user', content: prompt }] })) { /* drain */ }
    } else {
      await openai().chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: prompt }] });
    }
    await gateway.recorder.flush();
    const row = await gateway.database.db.selectFrom('usage_logs').selectAll().where('key_name', '=', 'bedrock').orderBy('id', 'desc').limit(1).executeTakeFirstOrThrow();
    // 8 prompt words: 5 uncached + 2 read from cache + 1 written; the answer is 15 words.
    expect(row).toMatchObject({ status: 200, model: MODEL, input_tokens: 8, cached_tokens: 2, cache_write_tokens: 1, output_tokens: 15, tokens_counted: 0 });
    expect(Number(row.cost_micros)).toBe(5 * 4 + 2 * 1 + 1 * 5 + 15 * 8);
  });

  it('counts what an upstream without usage did not report, from what was sent and delivered', async () => {
    sim.script({ omitUsage: true });
    await openai().chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'Hello there' }] });
    await gateway.recorder.flush();
    const row = await gateway.database.db.selectFrom('usage_logs').selectAll().where('key_name', '=', 'bedrock').orderBy('id', 'desc').limit(1).executeTakeFirstOrThrow();
    expect(row.tokens_counted).toBe(1);
    expect(row.output_tokens).toBeGreaterThan(0);
    expect(Number(row.cost_micros)).toBeGreaterThan(0);
  });

  it('ends a stream Bedrock breaks off with an exception event with an error in the client’s own format', async () => {
    sim.failNextStream({ type: 'modelStreamErrorException', message: 'The model stopped unexpectedly.', afterMessages: 4 });
    let text = '';
    const error = await (async () => {
      for await (const chunk of await openai().chat.completions.create({ model: MODEL, stream: true, messages: [{ role: 'user', content: 'Hello there' }] })) text += chunk.choices[0]?.delta.content ?? '';
    })().catch((e: unknown) => e);
    expect(text).toBe('Hello from the ');
    expect(error).toBeInstanceOf(OpenAI.APIError);
    expect((error as Error).message).toContain('The model stopped unexpectedly.');
  });

  it('gives the client a clear 502 for a wrong AWS secret and disables the channel with its reason', async () => {
    const error = await openai().chat.completions.create({ model: 'fragile-bedrock', messages: [{ role: 'user', content: 'x' }] }).catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 502 });
    expect((error as Error).message).toContain("refused the gateway's credentials");
    expect((error as Error).message).not.toContain('not-the-secret');
    const channel = await channelRow('bedrock-wrong-secret');
    expect(channel.status).toBe('auto_disabled');
    // The exception is named only in Bedrock's x-amzn-errortype header: the format's error reader sees it.
    expect(channel.status_reason).toContain("refused the gateway's credentials (403 InvalidSignatureException)");
    await expect(openai().chat.completions.create({ model: 'fragile-bedrock', messages: [{ role: 'user', content: 'x' }] })).rejects.toMatchObject({ status: 503 });
  });

  it('tests the channel with a signed Converse probe', async () => {
    const tested = await admin('POST', `/api/admin/channels/${(await channelRow('bedrock')).id}/test`, {});
    expect(tested.body).toMatchObject({ ok: true, status: 200, channel: 'bedrock' });
    expect(sim.requests.at(-1)!.body).toEqual({ messages: [{ role: 'user', content: [{ text: 'ping' }] }], inferenceConfig: { maxTokens: 8 } });
  });

  it('fails over to the next channel when Bedrock keeps answering 503 ServiceUnavailable', async () => {
    // A 5xx is retried once on the same channel (docs/failover.md), then the next route is taken.
    sim.script({ status: 503 }, { status: 503 });
    const before = spare.requests.length;
    const completion = await openai().chat.completions.create({ model: 'ha-bedrock', messages: [{ role: 'user', content: 'Hello there' }] });
    expect(completion.choices[0]!.message.content).toBe(`${GREETING}: you said "Hello there"`);
    expect(spare.requests.length).toBe(before + 1);
  });

  it('opens the circuit of a failing Bedrock channel and stops sending it requests', async () => {
    const toPrimary = () => sim.requests.filter((request) => request.path === '/model/breaker-bedrock/converse').length;
    sim.script({ status: 503 }, { status: 503 }, { status: 503 });
    const ask = () => openai().chat.completions.create({ model: 'breaker-bedrock', messages: [{ role: 'user', content: 'Hello there' }] });
    await ask(); // 503, retried once: 503, then the secondary answers (two failures)
    await ask(); // 503 again: the third failure opens the circuit, no retry
    expect(toPrimary()).toBe(3);
    const completion = await ask(); // the open channel is skipped
    expect(completion.choices[0]!.message.content).toBe(`${GREETING}: you said "Hello there"`);
    expect(toPrimary()).toBe(3);
    sim.reset();
  });

  it('passes a ValidationException on as a 400 with its message, in the client’s format', async () => {
    sim.script({ status: 400, body: { message: 'The provided request is not valid' } });
    const error = await anthropic().messages.create({ model: MODEL, max_tokens: 10, messages: [{ role: 'user', content: 'x' }] }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Anthropic.BadRequestError);
    expect((error as Error).message).toContain('The provided request is not valid');
  });

  it('answers a Bedrock throttle as a 429', async () => {
    sim.script({ status: 429 }, { status: 429 }, { status: 429 });
    const error = await openai().chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: 'x' }] }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OpenAI.RateLimitError);
    sim.reset();
  });

  it('keeps the AWS credential encrypted and never shows it; the region is shown', async () => {
    const stored = await channelRow('bedrock');
    expect(stored.api_keys_encrypted).not.toContain(BEDROCK_SIM_CREDENTIALS.secretAccessKey);
    const listed = await admin('GET', '/api/admin/channels');
    expect(JSON.stringify(listed.body)).not.toContain(BEDROCK_SIM_CREDENTIALS.secretAccessKey);
    expect(JSON.stringify(listed.body)).not.toContain(BEDROCK_SIM_CREDENTIALS.accessKeyId);
    const view = (listed.body.data as Record<string, unknown>[]).find((channel) => channel.name === 'bedrock');
    expect(view).toMatchObject({ type: 'bedrock', region: 'us-east-1', id: stored.id });
  });

  it('signs temporary credentials with their session token, for a model named by an inference profile ARN', async () => {
    const completion = await openai().chat.completions.create({ model: 'temp-bedrock', messages: [{ role: 'user', content: 'Hello there' }] });
    expect(completion.choices[0]!.message.content).toBe(`${GREETING}: you said "Hello there"`);
    const seen = sim.requests.at(-1)!;
    expect(seen.headers['x-amz-security-token']).toBe(TEMPORARY.sessionToken);
    expect(seen.path).toBe('/model/arn%3Aaws%3Abedrock%3Aus-east-1%3A123456789012%3Aapplication-inference-profile%2Fa1b2c3/converse');
    expect(sim.modelIds.at(-1)).toBe('arn:aws:bedrock:us-east-1:123456789012:application-inference-profile/a1b2c3');
  });

  it('refuses a bedrock channel without a region or with a credential it cannot use, naming the field and not the value', async () => {
    const noRegion = await admin('POST', '/api/admin/channels', { name: 'no-region', type: 'bedrock', api_key: AWS_KEY, models: ['x'] });
    expect(noRegion.status).toBe(400);
    expect(noRegion.body).toMatchObject({ error: { param: 'region' } });
    const badKey = await admin('POST', '/api/admin/channels', { name: 'bad-key', type: 'bedrock', region: 'eu-west-1', api_key: 'only-one-part-secret', models: ['x'] });
    expect(badKey.status).toBe(400);
    expect(badKey.body).toMatchObject({ error: { param: 'api_key' } });
    expect(JSON.stringify(badKey.body)).not.toContain('only-one-part-secret');
    const bedrockId = (await channelRow('bedrock')).id;
    expect((await admin('PATCH', `/api/admin/channels/${bedrockId}`, { api_key: 'nope' })).status).toBe(400);
    expect((await admin('PATCH', `/api/admin/channels/${bedrockId}`, { region: 'Not A Region' })).status).toBe(400);
  });

  it('refuses the same in the config file, naming the file, the field and the problem', () => {
    const text = JSON.stringify({ channels: [{ name: 'b', type: 'bedrock', api_key: 'AKIA-only', models: ['x'] }] });
    expect(() => parseConfigText('gateway.yaml', text)).toThrow(/channels\[0\]\.region: a bedrock channel needs its AWS region[\s\S]*channels\[0\]\.api_key: a bedrock channel's api_key must be/);
  });
});

