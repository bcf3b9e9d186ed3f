// Upstream faults measured by the fault-injection run of issue 10: an upstream that hangs up without an
// answer, an outage the circuit breaker must cut short (also across instances, over Redis), and a slow
// first byte that a per-model hedge hides. The client is the official OpenAI SDK.
import { createServer, type AddressInfo } from 'node:net';
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOpenAISimulator, type OpenAISimulator } from '../simulators/openai-simulator.ts';
import { startTestGateway, testKey, type TestGateway } from '../helpers/test-gateway.ts';
import { testRedisPrefix } from '../helpers/test-postgres.ts';

const KEY = testKey('faultinjection');
const UPSTREAM_KEY = 'sk-upstream-faults';
const priced = (id: string, extra: object = {}) => ({ id, owned_by: 'test', input_per_mtok: 1, output_per_mtok: 2, ...extra });
let main: OpenAISimulator;
let spare: OpenAISimulator;
let blackout: OpenAISimulator;
let closedPort: number;

/** A port nobody listens on: connections to it are refused. */
async function refusedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

function faultConfig() {
  const timeouts = { headers_ms: 10_000, first_token_ms: 10_000, idle_ms: 10_000 };
  const channel = (name: string, url: string, models: string[], priority = 0) => ({ name, type: 'openai', base_url: url, api_key: UPSTREAM_KEY, models, priority, timeouts });
  return {
    channels: [
      channel('hangs', main.url, ['hangup'], 1),
      channel('spare', spare.url, ['hangup', 'outage-spare', 'blackout-spare', 'hedged-spare']),
      channel('lonely', main.url, ['alone']),
      channel('down', `http://127.0.0.1:${closedPort}`, ['outage']),
      channel('blackout', blackout.url, ['blackout']),
      channel('slow', main.url, ['hedged', 'hedged-roomy']),
      channel('cutter', main.url, ['mended'], 1),
      channel('restarter', spare.url, ['mended']),
    ],
    models: [
      priced('hangup'), priced('alone'), priced('mended'), priced('outage-spare'), priced('blackout-spare'), priced('hedged-spare'),
      priced('outage', { fallbacks: ['outage-spare'] }),
      priced('blackout', { fallbacks: ['blackout-spare'] }),
      priced('hedged', { fallbacks: ['hedged-spare'], hedge_after_ms: 200 }),
      priced('hedged-roomy', { fallbacks: ['hedged-spare'], hedge_after_ms: 5000 }),
    ],
    users: [{ name: 'faults', balance: 100 }],
    keys: [{ name: 'faults', key: KEY, user: 'faults' }],
  };
}

beforeAll(async () => {
  main = await startOpenAISimulator({ apiKey: UPSTREAM_KEY });
  spare = await startOpenAISimulator({ apiKey: UPSTREAM_KEY });
  blackout = await startOpenAISimulator({ apiKey: UPSTREAM_KEY });
  closedPort = await refusedPort();
});

afterAll(async () => {
  await main?.close();
  await spare?.close();
  await blackout?.close();
});

const sdk = (gateway: TestGateway) => new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey: KEY, maxRetries: 0 });
const ask = (gateway: TestGateway, model: string) => sdk(gateway).chat.completions.create({ model, max_tokens: 30, messages: [{ role: 'user', content: `fault ${model}` }] });
const countOn = (sim: OpenAISimulator, model: string) => sim.requests.filter((r) => (r.body as { model?: string })?.model === model).length;
const requestsFor = (sim: OpenAISimulator, model: string) => sim.requests.filter((r) => (r.body as { model?: string })?.model === model);
const COOLDOWN_MS = 3000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function logsOf(gateway: TestGateway) {
  await gateway.recorder.flush();
  return gateway.database.db.selectFrom('usage_logs').selectAll().orderBy('id', 'asc').execute();
}
async function lastLog(gateway: TestGateway) {
  return (await logsOf(gateway)).at(-1)!;
}
const attemptsOf = (log: { attempts_json: string | null }) =>
  log.attempts_json === null ? null : (JSON.parse(log.attempts_json) as { channel: string; outcome: string }[]).map((a) => `${a.channel}:${a.outcome}`);

async function waitFor(condition: () => boolean, ms = 3000): Promise<boolean> {
  const until = Date.now() + ms;
  while (!condition() && Date.now() < until) await sleep(20);
  return condition();
}

describe('one instance', () => {
  let gateway: TestGateway;
  beforeAll(async () => {
    // A cool-down long enough that a loaded machine still sends the next requests inside it.
    gateway = await startTestGateway(faultConfig(), { env: { BREAKER_FAILURES: '3', BREAKER_COOLDOWN_MS: String(COOLDOWN_MS) } });
  });
  afterAll(async () => {
    await gateway?.dispose();
    main.reset();
    spare.reset();
  });

  it('fails over at once from an upstream that hangs up without an answer', async () => {
    main.script({ hangUp: true });
    const completion = await ask(gateway, 'hangup');
    expect(completion.choices[0]?.message.content).toContain('fault hangup');
    expect(countOn(main, 'hangup')).toBe(1); // never retried on the channel that hung up
    expect(countOn(spare, 'hangup')).toBe(1);
    expect(attemptsOf(await lastLog(gateway))).toEqual(['hangs:hung-up', 'spare:ok']);
  });

  it('tries a hung-up channel once more when it is the only route', async () => {
    main.script({ hangUp: true });
    const completion = await ask(gateway, 'alone');
    expect(completion.choices[0]?.message.content).toContain('fault alone');
    expect(attemptsOf(await lastLog(gateway))).toEqual(['lonely:hung-up', 'lonely:ok']);
  });

  it('opens the circuit of a refused channel and stops trying it, even when only a fallback model remains', async () => {
    await ask(gateway, 'outage');
    expect(attemptsOf(await lastLog(gateway))).toEqual(['down:transient', 'down:transient', 'spare:ok']);
    await ask(gateway, 'outage'); // the third failure opens the circuit: no retry on the open channel
    expect(attemptsOf(await lastLog(gateway))).toEqual(['down:transient', 'spare:ok']);
    for (let i = 0; i < 3; i++) {
      const completion = await ask(gateway, 'outage');
      expect(completion.model).toBe('outage-spare');
      const log = await lastLog(gateway);
      expect(log.model).toBe('outage-spare');
      expect(attemptsOf(log)).toBeNull(); // one attempt, on the fallback: the open channel was skipped
    }
    await sleep(COOLDOWN_MS + 100); // past the cool-down: one request probes, fails, and the circuit stays open
    await ask(gateway, 'outage');
    expect(attemptsOf(await lastLog(gateway))).toEqual(['down:transient', 'spare:ok']);
    await ask(gateway, 'outage');
    expect(attemptsOf(await lastLog(gateway))).toBeNull();
  });

  it('stops sending requests to an upstream that hangs up on every one during an outage, then closes after it recovers', async () => {
    blackout.script(...Array.from({ length: 10 }, () => ({ hangUp: true })));
    for (let i = 0; i < 6; i++) expect((await ask(gateway, 'blackout')).model).toBe('blackout-spare');
    expect(countOn(blackout, 'blackout')).toBe(3); // one per request until the third failure opened the circuit
    blackout.reset();
    await sleep(COOLDOWN_MS + 100);
    expect((await ask(gateway, 'blackout')).model).toBe('blackout'); // the probe succeeds: closed again
    expect((await ask(gateway, 'blackout')).model).toBe('blackout');
    expect(countOn(blackout, 'blackout')).toBe(2);
  });

  it('hedges a slow answer on the fallback model: the first to answer wins, the other is aborted and not charged', async () => {
    main.script({ delayMs: 4000 });
    const before = (await logsOf(gateway)).length;
    const completion = await ask(gateway, 'hedged');
    expect(completion.model).toBe('hedged-spare');
    expect(await waitFor(() => requestsFor(main, 'hedged').at(-1)?.aborted === true)).toBe(true);
    const logs = await logsOf(gateway);
    expect(logs.length).toBe(before + 1); // one call, one usage row
    expect(logs.at(-1)!.model).toBe('hedged-spare');
    expect(logs.at(-1)!.cost_micros).toBeGreaterThan(0);
  });

  it('hedges a stream whose first token is slow, and the client reads one whole answer from the winner', async () => {
    main.script({ firstChunkDelayMs: 4000 });
    const stream = await sdk(gateway).chat.completions.create({ model: 'hedged', stream: true, messages: [{ role: 'user', content: 'fault stream' }] });
    let text = '';
    const models = new Set<string>();
    for await (const chunk of stream) {
      models.add(chunk.model);
      text += chunk.choices[0]?.delta.content ?? '';
    }
    expect(text).toBe('Hello from the OpenAI simulator: you said "fault stream"');
    expect([...models]).toEqual(['hedged-spare']);
    expect(await waitFor(() => requestsFor(main, 'hedged').at(-1)?.aborted === true)).toBe(true);
    expect((await lastLog(gateway)).model).toBe('hedged-spare');
  });

  it('keeps the first route when it answers before the hedge wins, aborting the hedge', async () => {
    main.script({ delayMs: 500 });
    spare.script({ delayMs: 4000 });
    const sparesBefore = countOn(spare, 'hedged-spare');
    const completion = await ask(gateway, 'hedged');
    expect(completion.model).toBe('hedged');
    expect(countOn(spare, 'hedged-spare')).toBe(sparesBefore + 1); // the hedge was sent…
    expect(await waitFor(() => requestsFor(spare, 'hedged-spare').at(-1)?.aborted === true)).toBe(true); // …and aborted
    expect((await lastLog(gateway)).model).toBe('hedged');
    spare.reset();
  });

  it('sends no hedge when the first byte comes in time', async () => {
    const sparesBefore = countOn(spare, 'hedged-spare');
    expect((await ask(gateway, 'hedged-roomy')).model).toBe('hedged-roomy');
    await sleep(300);
    expect(countOn(spare, 'hedged-spare')).toBe(sparesBefore);
  });
});

describe('a stream cut midway, read by an Anthropic client through translation', () => {
  let gateway: TestGateway;
  beforeAll(async () => {
    gateway = await startTestGateway(faultConfig());
  });
  afterAll(async () => {
    await gateway?.dispose();
    main.reset();
    spare.reset();
  });

  it('restarts on a channel without prefill support and the client reads one whole message', async () => {
    main.script({ cutStreamAfterChunks: 4, chunkDelayMs: 30 });
    const client = new Anthropic({ baseURL: gateway.url, apiKey: KEY, maxRetries: 0 });
    const stream = client.messages.stream({ model: 'mended', max_tokens: 100, messages: [{ role: 'user', content: 'fault mended' }] });
    let text = '';
    stream.on('text', (delta) => (text += delta));
    const message = await stream.finalMessage();
    expect(text).toBe('Hello from the OpenAI simulator: you said "fault mended"');
    expect(message.content).toEqual([expect.objectContaining({ type: 'text', text: 'Hello from the OpenAI simulator: you said "fault mended"' })]);
    expect(message.stop_reason).toBe('end_turn');
    const restarted = requestsFor(spare, 'mended').at(-1)!.body as { messages: { role: string }[] };
    expect(restarted.messages.at(-1)?.role).toBe('user'); // no prefill
    const log = await lastLog(gateway);
    expect(log.error).toBeNull();
    expect(attemptsOf(log)).toEqual(['cutter:ok', 'restarter:restarted']);
  });
});

describe('two instances sharing Redis', () => {
  const prefix = testRedisPrefix();
  let a: TestGateway;
  let b: TestGateway;
  beforeAll(async () => {
    const env = { REDIS_URL: 'redis://127.0.0.1:6379', REDIS_PREFIX: prefix, BREAKER_FAILURES: '2', BREAKER_COOLDOWN_MS: '5000' };
    a = await startTestGateway(faultConfig(), { env });
    b = await startTestGateway(faultConfig(), { env });
  });
  afterAll(async () => {
    await a?.dispose();
    await b?.dispose();
    const redis = new Redis('redis://127.0.0.1:6379');
    const leftovers = await redis.keys(`${prefix}*`);
    if (leftovers.length > 0) await redis.del(...leftovers);
    await redis.quit();
  });

  it('opens a refused channel on one instance and the other skips it too', async () => {
    await ask(a, 'outage'); // two refusals on A open the circuit
    expect(attemptsOf(await lastLog(a))).toEqual(['down:transient', 'down:transient', 'spare:ok']);
    await sleep(200);
    const completion = await ask(b, 'outage');
    expect(completion.model).toBe('outage-spare');
    expect(attemptsOf(await lastLog(b))).toBeNull(); // B never tried the channel A found down
  });
});
